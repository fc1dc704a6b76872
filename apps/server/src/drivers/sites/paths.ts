import path from 'node:path';

/** The service's web root under the data dir of the local drivers: `<dataDir>/www/<reference>/`. */
export const localWebRoot = (dataDir: string, reference: string) => path.resolve(dataDir, 'www', reference);

/**
 * Normalises a folder typed by a user into a path relative to a web root, or null when it would
 * leave the root (`..`), carries a NUL or a backslash, or is otherwise unusable. Leading slashes
 * mean "from the web root", as users type `/public_html`.
 */
export function normaliseFolder(input: string): string | null {
  if (input.includes('\0') || input.includes('\\')) return null;
  const parts: string[] = [];
  for (const part of input.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') return null;
    if (!/^[\p{L}\p{N}._ -]{1,100}$/u.test(part) || part.trim() !== part) return null;
    parts.push(part);
  }
  const joined = parts.join('/');
  return joined.length <= 255 ? joined : null;
}

/** The absolute path of `relative` inside `root`, or a thrown error if it would escape it. */
export function insideRoot(root: string, relative: string): string {
  const target = path.resolve(root, relative);
  if (target !== root && !target.startsWith(root + path.sep)) throw new Error('path outside the web root');
  return target;
}
