import { ORIGIN_SEGMENT } from '@atalaya/contract';
import { InvalidName } from '../common/names.ts';

/**
 * Tokens that end up in an nginx configuration. nginx expands `$name` inside any string and has no
 * escape for it, so instead of escaping we refuse (paths) or percent-encode (URLs) every character
 * that could change the meaning of the directive.
 */

/** A file path as a double-quoted nginx string; refuses quotes, `$`, braces, `;`, `\` and controls. */
export function quotePath(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (/["'$\\{};\u0000-\u001f\u007f]/.test(value) || !value.startsWith('/')) {
    throw new InvalidName(`path not usable in an nginx config: ${JSON.stringify(value.slice(0, 80))}`);
  }
  return `"${value}"`;
}

const URL_SAFE = /[A-Za-z0-9\-._~:/?#[\]@!&'()*+,;=%]/;

/** An absolute http(s) URL, normalised and percent-encoded down to characters inert in nginx. */
export function redirectTarget(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidName('redirection target is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidName('redirection target must be http or https');
  let out = '';
  for (const ch of url.href) {
    out += URL_SAFE.test(ch)
      ? ch
      : [...new TextEncoder().encode(ch)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

/** An origin path of a redirection: `/`, or `/seg/seg` of URL-safe characters, no dot segments. */
export function originPath(value: string): string {
  const trimmed = value.length > 1 ? value.replace(/\/+$/, '') : value;
  const segments = trimmed.split('/').slice(1);
  if (
    !trimmed.startsWith('/') ||
    trimmed.length > 255 ||
    (trimmed !== '/' && segments.some((s) => s === '' || s === '.' || s === '..' || !ORIGIN_SEGMENT.test(s)))
  ) {
    throw new InvalidName(`invalid redirection origin: ${JSON.stringify(value.slice(0, 80))}`);
  }
  return trimmed;
}

/** Text for HTML element content and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
