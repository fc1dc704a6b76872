import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { endpoints as declared } from '@atalaya/contract';
import { describe, expect, it } from 'vitest';
import { endpoints } from './endpoints.ts';

const SRC = path.resolve(import.meta.dirname, '..');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [file] : [];
  });

describe("the web's endpoint table (written from the contract's by apiRoutes.ts)", () => {
  it('holds every call of the contract with its method, path and permission, and nothing else (no schema reaches the browser)', () => {
    const areas = Object.entries(declared);
    expect(Object.keys(endpoints).sort()).toEqual(areas.map(([area]) => area).sort());
    for (const [area, calls] of areas) {
      const routes: Record<string, unknown> = endpoints[area as keyof typeof endpoints];
      expect(Object.keys(routes).sort(), area).toEqual(Object.keys(calls).sort());
      for (const [name, e] of Object.entries(calls))
        expect(routes[name], `${area}.${name}`).toEqual({
          method: e.method,
          path: e.path,
          permission: e.permission,
        });
    }
  });

  it("is the only one the web imports: the contract's table brings zod and every schema (decision 011)", () => {
    const found = sources(SRC).filter((file) =>
      [...readFileSync(file, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'@atalaya\/contract'/g)].some((m) =>
        m[1].split(',').some((name) => name.trim() === 'endpoints'),
      ),
    );
    expect(found.map((file) => path.relative(SRC, file))).toEqual([]);
  });
});
