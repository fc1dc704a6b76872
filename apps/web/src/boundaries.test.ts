import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(fileURLToPath(import.meta.url));

/** Every source file of the web app, relative to src/. */
function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) ? [path.relative(SRC, full)] : [];
  });
}

/** The relative imports of a file (static, re-exports and dynamic), resolved against src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(SRC, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  return specifiers.map((s) => path.relative(SRC, path.resolve(SRC, path.dirname(file), s)));
}

/** 'feature:<name>', 'lib', 'components', 'app' or the top of src/. */
function layerOf(file: string): string {
  const [top, second] = file.split(path.sep);
  return top === 'features' ? `feature:${second}` : top;
}

/** What each layer may not import: features stay apart, lib and components never reach into features. */
function violation(from: string, to: string): boolean {
  const a = layerOf(from);
  const b = layerOf(to);
  if (!b.startsWith('feature:')) return false;
  if (a.startsWith('feature:')) return a !== b;
  return a === 'lib' || a === 'components';
}

describe('the import boundaries of the web app', () => {
  const files = sources();

  it('finds the layers it checks', () => {
    const layers = new Set(files.map(layerOf));
    for (const layer of ['lib', 'components', 'app', 'feature:domain', 'feature:service', 'feature:sites']) expect(layers).toContain(layer);
  });

  it('keeps every feature to itself, and lib/ and components/ free of features', () => {
    const found = files.flatMap((file) =>
      importsOf(file)
        .filter((to) => violation(file, to))
        .map((to) => `${file} → ${to}`),
    );
    expect(found).toEqual([]);
  });

  it('would report a feature importing another, and lib/ or components/ importing a feature', () => {
    const feature = (name: string) => path.join('features', name, 'x.ts');
    expect(violation(feature('sites'), feature('service'))).toBe(true);
    expect(violation(path.join('lib', 'x.ts'), feature('domain'))).toBe(true);
    expect(violation(path.join('components', 'ui', 'x.ts'), feature('dns'))).toBe(true);
    expect(violation(feature('sites'), path.join('lib', 'hosting.ts'))).toBe(false);
    expect(violation(path.join('app', 'router.tsx'), feature('dns'))).toBe(false);
  });
});
