import path from 'node:path';

/** The service's web root under the data dir of the local drivers: `<dataDir>/www/<reference>/`. */
export const localWebRoot = (dataDir: string, reference: string) => path.resolve(dataDir, 'www', reference);

/** The absolute path of `relative` inside `root`, or a thrown error if it would escape it. */
export function insideRoot(root: string, relative: string): string {
  const target = path.resolve(root, relative);
  if (target !== root && !target.startsWith(root + path.sep)) throw new Error('path outside the web root');
  return target;
}
