import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = import.meta.dirname;
const STYLES = path.resolve(SRC, '../../../node_modules/@mantine/core/styles');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [full] : [];
  });
}

describe('Mantine styles', () => {
  it('are loaded, in src/styles.css, for every Mantine component the app uses', () => {
    expect(existsSync(path.join(STYLES, 'Button.css')), STYLES).toBe(true); // else nothing below is checked
    const used = new Set<string>();
    for (const file of sourceFiles(SRC)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'@mantine\/core'/g)) {
        for (const name of match[1].split(',').map((n) => n.replace(/^type\s+/, '').trim())) {
          if (/^[A-Z]\w*$/.test(name)) used.add(name);
        }
      }
    }
    const styles = readFileSync(path.join(SRC, 'styles.css'), 'utf8');
    // The formatter may quote the @imports either way.
    const imported = (name: string) => new RegExp(`styles/${name}\\.css['"]`).test(styles);
    const missing = [...used].filter((name) => existsSync(path.join(STYLES, `${name}.css`)) && !imported(name));
    expect(missing).toEqual([]);
  });

  it('are imported only there, so their order is the one written', () => {
    const elsewhere = sourceFiles(SRC).filter((file) => readFileSync(file, 'utf8').includes("'@mantine/core/styles/"));
    expect(elsewhere.map((f) => path.relative(SRC, f))).toEqual([]);
  });
});
