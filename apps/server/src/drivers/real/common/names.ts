import { realpathSync } from 'node:fs';
import path from 'node:path';
import { PermanentJobError } from '../../../outbox/permanent.ts';

/**
 * Validation of every name and path a real backend receives. The panel validates its inputs too;
 * these checks are the last line, right before a name becomes a file name, a config token or a
 * program argument, so they are deliberately narrower than what the protocols allow. A name
 * refused here is refused on every try: a job that meets one fails at once.
 */
export class InvalidName extends PermanentJobError {}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A lowercase punycode host name (no wildcard, no trailing dot). */
export function hostName(value: string): string {
  if (value.length > 253 || !value.split('.').every((l) => LABEL.test(l)) || !value.includes('.')) {
    throw new InvalidName(`invalid host name: ${JSON.stringify(value.slice(0, 80))}`);
  }
  return value;
}

/** An e-mail address with a conservative local part; `@domain` (empty local part) when allowEmpty. */
export function mailAddress(value: string, allowEmpty = false): { local: string; domain: string } {
  const at = value.lastIndexOf('@');
  const local = value.slice(0, at);
  const domain = value.slice(at + 1).toLowerCase();
  const localOk = (allowEmpty && local === '') || /^(?!\.)[a-zA-Z0-9._+-]{1,64}(?<!\.)$/.test(local);
  if (at < 0 || !localOk || local.includes('..')) throw new InvalidName(`invalid e-mail address: ${JSON.stringify(value.slice(0, 80))}`);
  hostName(domain);
  return { local: local.toLowerCase(), domain };
}

/** A key naming one generated file (`site-12`, `apex-3`, a service reference…): letters, digits, . _ - */
export function fileKey(value: string): string {
  if (!/^[a-zA-Z0-9][a-zA-Z0-9._-]{0,127}$/.test(value) || value.includes('..')) {
    throw new InvalidName(`invalid key: ${JSON.stringify(value.slice(0, 80))}`);
  }
  return value;
}

/**
 * The absolute path of `relative` inside `root`, refusing NUL, `..` segments, and anything that
 * resolves outside the root, including through a symbolic link of an existing ancestor.
 */
export function resolveInside(root: string, relative: string): string {
  if (relative.includes('\0') || root.includes('\0')) throw new InvalidName('path contains NUL');
  if (relative.split(/[\\/]/).includes('..')) throw new InvalidName('path contains ..');
  const base = path.resolve(root);
  const target = path.resolve(base, relative.replace(/^\/+/, ''));
  if (!isInside(base, target)) throw new InvalidName('path outside its root');
  // A link inside the root pointing elsewhere must not let a write escape.
  const realBase = realOrSelf(base);
  if (!isInside(realBase, realExistingAncestor(target))) throw new InvalidName('path leaves its root through a link');
  return target;
}

/** An absolute path given by the operator's config or the panel, checked to lie inside `root`. */
export function absoluteInside(root: string, absolute: string): string {
  if (!path.isAbsolute(absolute)) throw new InvalidName('path must be absolute');
  return resolveInside(root, path.relative(path.resolve(root), path.resolve(absolute)));
}

const isInside = (base: string, target: string) => target === base || target.startsWith(base + path.sep);

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function realExistingAncestor(target: string): string {
  let current = target;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync(current), ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return target;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}
