import { SITES_LIMITS } from './codes.ts';

/** True when the text holds a control character (C0 or DEL). */
const hasControl = (text: string) => [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The site name as stored: lower-case DNS labels under the service's reference. Users may type
 * `blog`, `blog.example.com` or `Blog.Example.com.`; all give `blog`. Null when not a valid name.
 */
export function toSiteName(input: string, reference: string): string | null {
  let name = input.trim().toLowerCase().replace(/\.$/, '');
  const suffix = `.${reference.toLowerCase()}`;
  if (name.endsWith(suffix)) name = name.slice(0, -suffix.length);
  if (name === '' || name.length > 200) return null;
  const labels = name.split('.');
  if (!labels.every((label) => LABEL.test(label))) return null;
  // The full host name must itself be a valid DNS name.
  return `${name}${suffix}`.length <= 253 ? name : null;
}

/** A segment of a redirection's origin path: URL-safe characters only, as the web server matches them. */
export const ORIGIN_SEGMENT = /^[A-Za-z0-9._~-]+$/;

/**
 * Normalises a redirection's origin path: always starts with '/', no repeated or trailing
 * slashes (except the root), no `.`/`..` segments, only URL-safe characters (no query, fragment,
 * spaces or control characters), at most `SITES_LIMITS.originMax` characters.
 */
export function toOriginPath(input: string): string | null {
  const raw = input.trim();
  if (hasControl(raw)) return null;
  const parts: string[] = [];
  for (const part of raw.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' || !ORIGIN_SEGMENT.test(part)) return null;
    parts.push(part);
  }
  const path = `/${parts.join('/')}`;
  return path.length <= SITES_LIMITS.originMax ? path : null;
}

/** An absolute http(s) URL with a host, or null. */
export function toTargetUrl(input: string): string | null {
  const raw = input.trim();
  if (!/^https?:\/\//i.test(raw) || hasControl(raw) || /\s/.test(raw)) return null;
  try {
    const url = new URL(raw);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || url.username || url.password) return null;
    return url.toString();
  } catch {
    return null;
  }
}

/** Removes accents and case, so the catalogue filter matches "galeria" with "Galería". */
export const foldText = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
