import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'] as const;

/**
 * The routes that may answer 2xx without a session. A new public route is a security decision:
 * add it here on purpose (docs/design.md#security lists them).
 */
const PUBLIC = [
  'GET /p247/openapi.json',
  'GET /p247/config/get/',
  'GET /p247/captcha/',
  'GET /p247/legal/privacypolicy/',
  'POST /p247/user/login/',
  // The second sign-in step: it holds a sealed challenge from the first, not a session (decision 021).
  'POST /p247/user/login/second/',
  'POST /p247/user/logout/',
  'POST /p247/contact/',
  // The sites area's application catalogue logos: static images for <img>, which sends no CSRF header.
  'GET /p247/hostingapplication/:appId/logo/',
  // The load balancer's liveness and readiness checks (docs/deploy.md).
  'GET /p247/health',
  'GET /p247/ready',
];

// Any value will do for a parameter: the guard must refuse before anything reads it.
const concrete = (url: string) => url.replace(/:\w+(\([^)]*\))?/g, '1').replace(/\*/g, 'x');

describeStores('default deny on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await openTestApp(kind);
    await ctx.app.ready();
  });
  afterAll(() => ctx.close());

  it('declares only the expected public routes', () => {
    const declared = ctx.app.apiRoutes
      .filter((r) => r.access)
      .flatMap((r) => r.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${r.url}`));
    expect([...new Set(declared)].sort()).toEqual([...PUBLIC].sort());
  });

  it('answers no 2xx without a session on any registered route with any method, but the public ones', async () => {
    const urls = [...new Set(ctx.app.apiRoutes.map((r) => r.url))];
    expect(urls).toEqual(expect.arrayContaining(['/p247/user/info/', '/p247/permission/:id/', '/p247/ws']));
    const open = new Set(ctx.app.apiRoutes.filter((r) => r.access).flatMap((r) => r.methods.map((m) => `${m} ${r.url}`)));
    const leaks: string[] = [];
    for (const url of urls) {
      for (const method of METHODS) {
        const declared = open.has(`${method} ${url}`) || (method === 'HEAD' && open.has(`GET ${url}`));
        for (const headers of [{ 'x-dd-request': '1' }, {}]) {
          const res = await ctx.app.inject({ method, url: concrete(url), headers });
          if (res.statusCode >= 200 && res.statusCode < 300 && !declared) leaks.push(`${method} ${url} → ${res.statusCode}`);
          // The SPA's sign-in signal (101) on its own calls; an operator call asks for an operator token instead (decision 037).
          const operatorCall = url.startsWith('/p247/operator/');
          if (res.statusCode === 401 && method !== 'HEAD') expect(res.json().system.statusCode).toBe(operatorCall ? 401 : 101);
        }
      }
    }
    expect(leaks).toEqual([]);
    expect(urls.length).toBeGreaterThan(10);
  });

  it('answers 2xx to the side-effect-free public reads without the CSRF header', async () => {
    for (const url of ['/p247/config/get/', '/p247/captcha/', '/p247/legal/privacypolicy/']) {
      expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    }
  });
});
