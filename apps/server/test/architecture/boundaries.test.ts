import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every module a file imports (static, side-effect, re-export and dynamic), resolved to a path inside the repository or a package name. */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(
      /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    ),
  ].map((m) => m[1] ?? m[2] ?? m[3]);
  return specifiers.map((s) => (s.startsWith('.') ? path.relative(ROOT, path.resolve(path.dirname(file), s)) : s));
}

/** The imports of the files under `from` that reach something `forbidden` matches, as "file -> import". */
function violations(from: string, forbidden: (target: string) => boolean): string[] {
  return sourceFiles(path.join(ROOT, from)).flatMap((file) =>
    importsOf(file)
      .filter(forbidden)
      .map((target) => `${path.relative(ROOT, file)} -> ${target}`),
  );
}

const under = (dir: string) => (target: string) => target === dir || target.startsWith(`${dir}/`);

describe('the layers of the tree (docs/architecture.md#layers)', () => {
  it('keep drivers free of areas, HTTP, the CLI and the composition root', () => {
    const server = 'apps/server/src';
    const above = ['modules', 'http', 'cli', 'demo', 'app.ts', 'runtime.ts', 'server.ts'].map((p) => under(`${server}/${p}`));
    expect(violations(`${server}/drivers`, (t) => above.some((f) => f(t)))).toEqual([]);
  });

  it('keep the store and the outbox free of areas and drivers (table types aside)', () => {
    const server = 'apps/server/src';
    const allowed = (t: string) => /^apps\/server\/src\/modules\/\w+\/tables\.ts$/.test(t);
    const above = ['modules', 'drivers', 'http', 'cli', 'app.ts', 'runtime.ts'].map((p) => under(`${server}/${p}`));
    const bad = (t: string) => !allowed(t) && above.some((f) => f(t));
    expect([...violations(`${server}/store`, bad), ...violations(`${server}/outbox`, bad)]).toEqual([]);
  });

  it('keep the server and the web app out of each other, and the contract out of both', () => {
    expect(violations('apps/server/src', (t) => under('apps/web')(t) || t.startsWith('@atalaya/web'))).toEqual([]);
    expect(violations('apps/web/src', (t) => under('apps/server')(t) || t.startsWith('@atalaya/server'))).toEqual([]);
    expect(violations('packages/contract/src', (t) => under('apps')(t) || /^@atalaya\/(server|web)/.test(t))).toEqual([]);
  });

  it('see every kind of import, so a violation cannot hide in another syntax', () => {
    const probe = path.join(ROOT, 'apps/server/test/architecture/boundaries.test.ts');
    expect(importsOf(probe)).toEqual(expect.arrayContaining(['node:fs', 'node:path', 'vitest']));
  });
});

const SERVER = 'apps/server/src';

/** The server's source files (tests aside) and the repository paths each imports, resolved to files. */
function serverGraph(): Map<string, string[]> {
  const files = sourceFiles(path.join(ROOT, SERVER)).filter((file) => !/\.test\.ts$/.test(file));
  const known = new Set(files.map((file) => path.relative(ROOT, file)));
  return new Map(files.map((file) => [path.relative(ROOT, file), importsOf(file).filter((target) => known.has(target))]));
}

/** Every import circle of a graph, each as the files around it (Tarjan's strongly connected components). */
export function circlesOf(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const circle: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      circle.push(member);
    } while (member !== node);
    if (circle.length > 1 || (graph.get(node) ?? []).includes(node)) circles.push(circle.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
}

/** The areas' direction as docs/architecture.md writes it: the numbered list under "The areas' direction". */
function writtenDirection(): string[] {
  const doc = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
  const section = doc.slice(doc.indexOf("### The areas' direction"));
  const list = section.slice(0, section.indexOf('\n\n', section.indexOf('\n1. ')));
  return [...list.matchAll(/^\d+\. `(\w+)`/gm)].map((m) => m[1]);
}

const areaOf = (file: string) => /^apps\/server\/src\/modules\/(\w+)\/.+/.exec(file)?.[1] ?? null;

describe('the direction of the server (docs/architecture.md#layers)', () => {
  it('has no import circle among its source files, type imports included', () => {
    expect(circlesOf(serverGraph())).toEqual([]);
  });

  it('finds a circle, so an empty answer means there is none', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(circlesOf(graph)).toEqual([['a', 'b', 'c']]);
  });

  it('keeps the kernel under every area, HTTP, the CLI and the composition root', () => {
    const above = ['modules', 'http', 'cli', 'demo', 'app.ts', 'runtime.ts', 'server.ts'].map((p) => under(`${SERVER}/${p}`));
    expect(violations(`${SERVER}/kernel`, (t) => above.some((f) => f(t)))).toEqual([]);
  });

  it('lets only the entry points import the composition root', () => {
    const importers = [...serverGraph()].filter(([, targets]) => targets.includes(`${SERVER}/runtime.ts`)).map(([file]) => file);
    expect(importers.sort()).toEqual([`${SERVER}/app.ts`, `${SERVER}/cli/main.ts`, `${SERVER}/server.ts`]);
  });

  it('lets an area import only the areas written above it', () => {
    const order = writtenDirection();
    const areas = readdirSync(path.join(ROOT, SERVER, 'modules'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    // An area the list does not place may import no other area, and none may import it.
    const rank = (area: string) => (order.includes(area) ? order.indexOf(area) : -1);
    expect(order.length).toBeGreaterThan(10);
    expect(order.filter((area) => !areas.includes(area))).toEqual([]);
    const against = [...serverGraph()].flatMap(([file, targets]) => {
      const from = areaOf(file);
      if (!from) return [];
      return targets
        .filter((target) => {
          const to = areaOf(target);
          return to !== null && to !== from && (rank(from) < 0 || rank(to) < 0 || rank(to) > rank(from));
        })
        .map((target) => `${file} -> ${target}`);
    });
    expect(against).toEqual([]);
  });
});

describe('the shape of an area (docs/architecture.md#the-shape-of-an-area)', () => {
  const modules = path.join(ROOT, 'apps/server/src/modules');
  const registers = /\b(?:app|api)\.(?:get|post|put|delete|route)\(|\broute\(\s*app\b/;

  it('registers calls only in routes.ts or <screen>-routes.ts files', () => {
    const misplaced = sourceFiles(modules)
      .filter((file) => !/\.test\.ts$/.test(file) && registers.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(ROOT, file))
      .filter((file) => !/(^|\/|-)routes\.ts$/.test(file));
    expect(misplaced).toEqual([]);
  });

  it('gives every area a routes.ts, the plugin modules/index.ts mounts', () => {
    const index = readFileSync(path.join(modules, 'index.ts'), 'utf8');
    const mounted = [...index.matchAll(/from '\.\/(\w+)\/routes\.ts'/g)].map((m) => m[1]);
    const withRoutes = readdirSync(modules, { withFileTypes: true })
      .filter(
        (entry) => entry.isDirectory() && sourceFiles(path.join(modules, entry.name)).some((f) => registers.test(readFileSync(f, 'utf8'))),
      )
      .map((entry) => entry.name);
    expect(mounted.sort()).toEqual(withRoutes.sort());
  });
});
