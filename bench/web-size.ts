/** Gzip size of what the sign-in route loads, read from the Vite build manifest (DESIGN §8). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export const LOGIN_ROUTE = 'src/features/session/LoginPage.tsx';

/** The chunks a key pulls in through static imports. */
function closure(manifest: Manifest, keys: string[], seen = new Set<string>()) {
  for (const key of keys) {
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    closure(manifest, manifest[key].imports ?? [], seen);
  }
  return seen;
}

export interface RouteSize {
  jsGzip: number;
  cssGzip: number;
  files: number;
}

function measure(dist: string, manifest: Manifest, keys: Set<string>): RouteSize {
  const js = new Set<string>();
  const css = new Set<string>();
  for (const key of keys) {
    js.add(manifest[key].file);
    for (const file of manifest[key].css ?? []) css.add(file);
  }
  const gz = (files: Set<string>) => [...files].reduce((sum, f) => sum + gzipSync(readFileSync(path.join(dist, f)), { level: 9 }).length, 0);
  return { jsGzip: gz(js), cssGzip: gz(css), files: js.size + css.size };
}

/**
 * `initial`: the entry and the sign-in route with their static imports (what the first paint needs).
 * `withCaptcha`: plus the library code those chunks import on their own after paint (the ALTCHA
 * widget): everything the sign-in page has loaded once it is usable.
 */
export function loginRouteSize(dist: string) {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
  const initial = closure(manifest, ['index.html', LOGIN_ROUTE]);
  const deferred = [...initial].flatMap((key) => manifest[key].dynamicImports ?? []).filter((key) => key.includes('node_modules/'));
  const everything = closure(manifest, deferred, new Set(initial));
  return { initial: measure(dist, manifest, initial), withCaptcha: measure(dist, manifest, everything) };
}
