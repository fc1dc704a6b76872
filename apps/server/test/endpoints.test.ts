import { ALL_ENDPOINTS, API_BASE, type Endpoint, isRawAnswer } from '@atalaya/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { hasPathParams, routeOptions } from '../src/http/route.ts';
import { openTestApp, type TestContext } from './stores.ts';

const key = (method: string, path: string) => `${method} ${path}`;
const keyOf = (e: Endpoint) => key(e.method, `${API_BASE.slice(0, -1)}${e.path}`);
/** The socket upgrade and the OpenAPI document itself are the only calls the document leaves out. */
const documented = (e: Endpoint) => !isRawAnswer(e.answer) || 'file' in e.answer;
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

describe('the endpoint table', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await openTestApp('sqlite');
    await ctx.app.ready();
  });
  afterAll(() => ctx.close());

  it('declares each call once', () => {
    const keys = ALL_ENDPOINTS.map(keyOf);
    expect(keys.length).toBeGreaterThan(70);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is what the server registers: every /p247/ route comes from an entry, and every entry is registered', () => {
    const routes = ctx.app.apiRoutes.flatMap((r) =>
      r.methods.filter((m) => m !== 'HEAD').map((m) => ({ key: key(m, r.url), endpoint: r.endpoint })),
    );
    const notFromTable = routes.filter((r) => !r.endpoint || keyOf(r.endpoint) !== r.key).map((r) => r.key);
    expect(notFromTable).toEqual([]);
    expect(routes.map((r) => r.key).sort()).toEqual(ALL_ENDPOINTS.map(keyOf).sort());
  });

  it('checks the params of every call whose path names some, and declares none for a path that names none', () => {
    const names = (e: Endpoint) => Object.keys((e.params as z.ZodObject).shape).sort();
    const inPath = (e: Endpoint) => [...e.path.matchAll(/:(\w+)/g)].map((m) => m[1]).sort();
    const mismatched = ALL_ENDPOINTS.filter((e) => names(e).join() !== inPath(e).join()).map(keyOf);
    expect(mismatched).toEqual([]);
    for (const e of ALL_ENDPOINTS) expect(Boolean(routeOptions(e).schema?.params), keyOf(e)).toBe(hasPathParams(e));
    expect(ALL_ENDPOINTS.filter(hasPathParams).length).toBeGreaterThan(30);
  });

  it("lets the guard read each call's access from the table: public entries public, every other one behind the session", () => {
    const wrong = ctx.app.apiRoutes
      .filter((r) => r.endpoint)
      .filter((r) => {
        const permission = r.endpoint!.permission;
        return r.access !== ('public' in permission ? permission.public : undefined);
      })
      .map((r) => r.url);
    expect(wrong).toEqual([]);
  });

  it('gives every registered JSON call its answer schema in openapi.json, the envelope around the data', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `${API_BASE}openapi.json` });
    const paths = res.json().paths as Record<
      string,
      Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>
    >;
    const missing: string[] = [];
    for (const e of ALL_ENDPOINTS.filter(documented)) {
      const content = paths[openApiPath(e.path)]?.[e.method.toLowerCase()]?.responses?.['200']?.content ?? {};
      const schema = (isRawAnswer(e.answer) ? Object.values(content)[0]?.schema : content['application/json']?.schema) as
        | { properties?: Record<string, unknown>; type?: string }
        | undefined;
      const described = isRawAnswer(e.answer)
        ? Boolean(schema)
        : Boolean(schema?.properties?.system && 'data' in (schema.properties ?? {}));
      if (!described) missing.push(keyOf(e));
    }
    expect(missing).toEqual([]);
  });
});
