import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AREAS } from '@atalaya/contract';
import { describe, expect, it } from 'vitest';

const MODULES = path.resolve(import.meta.dirname, '../../src/modules');

/** Every route file of the server: an area's `routes.ts`, a screen's `<screen>-routes.ts` or `<screen>/routes.ts`. */
function routeFiles(dir = MODULES): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === 'routes.ts' || entry.name.endsWith('-routes.ts') ? [full] : [];
  });
}
const FILES = routeFiles().map((file) => ({ file, name: path.relative(MODULES, file), text: readFileSync(file, 'utf8') }));
/** An area's own routes.ts: the plugin modules/index.ts mounts. */
const isAreaPlugin = (name: string) => /^\w+\/routes\.ts$/.test(name);

/** Table names that are also area names (`selectFrom('service')`) are not a permission. */
const withoutTables = (text: string) => text.replace(/\.(selectFrom|updateTable|insertInto|deleteFrom|leftJoin|innerJoin)\('[^']*'/g, '');

/** What a route file must not say: the entry in the endpoint table says it, and `route()` checks it (docs/architecture.md). */
function permissionWords(text: string): string[] {
  const code = withoutTables(text);
  const areas = AREAS.filter((area) => code.includes(`'${area}'`)).map((area) => `area '${area}'`);
  const levels = [...code.matchAll(/[(,]\s*'(read|write)'\s*[,)]/g)].map((m) => `level '${m[1]}' passed to a call`);
  const openers = [...code.matchAll(/\b(openItem|openService|openDomain|openZone|mailAccess|authorize|assertDeclared)\s*\(/g)].map(
    (m) => `opener ${m[1]}()`,
  );
  const checks = [...code.matchAll(/\b(canAct|canSee)\s*\(/g)].map((m) => `permission check ${m[1]}()`);
  return [...areas, ...levels, ...openers, ...checks];
}

/** How a route file may reach the runtime: `app.runtime` only (store, config, secrets, drivers destructured from it). */
function otherHandles(text: string): string[] {
  return [...text.matchAll(/\b(app|request\.server)\.(store|config|secrets)\b|\brequest\.server\.runtime\b|\bctx\b/g)].map((m) => m[0]);
}

describe('the route files (docs/architecture.md#the-shape-of-an-area)', () => {
  it('exist, in every area', () => {
    expect(FILES.filter((f) => isAreaPlugin(f.name)).length).toBeGreaterThan(10);
  });

  it('name no permission area or level, call no opener and check no permission themselves: the endpoint entry says it', () => {
    const found = FILES.flatMap((f) => permissionWords(f.text).map((word) => `${f.name}: ${word}`));
    expect(found).toEqual([]);
  });

  it('reach the runtime one way, through app.runtime', () => {
    const found = FILES.flatMap((f) => otherHandles(f.text).map((word) => `${f.name}: ${word}`));
    expect(found).toEqual([]);
  });

  it('each export one thing, a Fastify plugin as their default export; helpers live elsewhere (access.ts for loaders)', () => {
    const wrong = FILES.filter((f) => {
      const exports = [...f.text.matchAll(/^export\b.*$/gm)].map((m) => m[0]);
      return exports.length !== 1 || !/^export default async function \w+\(app: FastifyInstance\b/.test(exports[0]);
    });
    expect(wrong.map((f) => f.name)).toEqual([]);
  });

  it("are each registered with app.register: an area's plugin from modules/index.ts, a screen's from its area's plugin", () => {
    const index = readFileSync(path.join(MODULES, 'index.ts'), 'utf8');
    const unregistered = FILES.filter((f) => {
      if (isAreaPlugin(f.name)) {
        const local = new RegExp(`import (\\w+) from '\\./${f.name.replace('.', '\\.')}';`).exec(index)?.[1];
        return !local || !new RegExp(`MODULES[^=]*=\\s*\\[[^\\]]*\\b${local}\\b`).test(index);
      }
      const area = f.name.split('/')[0];
      const parent = readFileSync(path.join(MODULES, area, 'routes.ts'), 'utf8');
      const relative = `./${path.relative(path.join(MODULES, area), f.file)}`;
      const local = new RegExp(`import (\\w+) from '${relative.replace(/[.]/g, '\\.')}';`).exec(parent)?.[1];
      return !local || !new RegExp(`await app\\.register\\(${local}\\b`).test(parent);
    });
    expect(unregistered.map((f) => f.name)).toEqual([]);
  });

  it('see what they look for: a handler naming an area, an opener or another handle is found', () => {
    const handler = `const { access } = await openService(request, id, 'service_ftp', 'read'); if (canAct(m, x)) app.store.x; ctx.y; request.server.runtime.store;`;
    expect(permissionWords(handler)).toEqual([
      "area 'service_ftp'",
      "level 'read' passed to a call",
      'opener openService()',
      'permission check canAct()',
    ]);
    expect(otherHandles(handler)).toEqual(['app.store', 'ctx', 'request.server.runtime']);
    expect(permissionWords("store.selectFrom('service').where('x', 'in', ['read', 'write'])")).toEqual([]);
  });
});
