import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FieldErrors } from '../src/http/errors.ts';
import { openTestApp, STORE_KINDS, type TestContext } from './stores.ts';

describe.each(STORE_KINDS)('the API envelope on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await openTestApp(kind, { 'legal.jurisdiction': 'Manacor' });
    // Routes that exist only in this test, to exercise the body conventions end to end.
    ctx.app.post(
      '/p247/test/echo/',
      { config: { public: 'form' }, schema: { body: z.object({ name: z.string().min(1), dns: z.array(z.string()).optional(), cert: z.string().optional() }) } },
      async (request) => ({ data: request.body, info: [{ key: 'main.success' }] }),
    );
    ctx.app.get('/p247/test/boom/', { config: { public: 'read' } }, async () => {
      throw new Error('database password is hunter2');
    });
    ctx.app.get('/p247/test/fields/', { config: { public: 'read' } }, async () => {
      throw new FieldErrors([{ input: 'ip', key: 'validation.ipv4' }, { input: 'name', key: 'validation.required' }]);
    });
  });
  afterAll(() => ctx.close());

  const form = { 'content-type': 'application/x-www-form-urlencoded', 'x-dd-request': '1' };

  it('answers config with the envelope, the x-dd header and the configured branding', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/p247/config/get/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-dd']).toBe('1');
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.system).toEqual({ valid: true, errors: [], inputs: [], info: [], statusCode: 200, debug: [], job: null, mlcVer: '1' });
    expect(body.data).toMatchObject({ company: 'Atalaya', jurisdiction: 'Manacor', themeConfig: { logo: '/assets/images/logo.png', logo_mini: '/assets/images/logo_mini.png', color: 'indigo' } });
  });

  it('answers 404 in the envelope for an unknown route under /p247/', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/p247/no/such/route/' });
    expect(res.statusCode).toBe(404);
    expect(res.json().system).toMatchObject({ valid: false, statusCode: 404, errors: ['Recurso no encontrado'] });
  });

  it('reads URL-encoded bodies with repeated name[] fields as arrays and translates info', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/p247/test/echo/', headers: form, payload: 'name=a&dns[]=ns1.x.com&dns[]=ns2.x.com&language=en' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ name: 'a', dns: ['ns1.x.com', 'ns2.x.com'] });
    expect(res.json().system.info).toEqual(['Operation done successfully']);
  });

  it('reads multipart bodies, files included, into the same fields', async () => {
    const boundary = 'XyZ';
    const payload = [
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nsite\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="cert"; filename="c.pem"\r\nContent-Type: application/x-pem-file\r\n\r\n-----BEGIN CERTIFICATE-----\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/p247/test/echo/',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-dd-request': '1' },
      payload,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ name: 'site', cert: '-----BEGIN CERTIFICATE-----' });
  });

  it('pairs field errors as inputs and errors, translated into the forced language', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/p247/test/fields/?language=ca' });
    expect(res.statusCode).toBe(400);
    expect(res.json().system).toMatchObject({ valid: false, inputs: ['ip', 'name'], errors: ['IP no vàlida', 'Camp obligatori'] });
  });

  it('answers in the language the screens show (the _lang cookie), over the browser’s own', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/p247/no/such/', headers: { cookie: '_lang=en', 'accept-language': 'ca' } });
    expect(res.json().system.errors).toEqual(['Resource not found']);
  });

  it('turns a schema failure into a field error under the field', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/p247/test/echo/', headers: form, payload: 'name=&language=en' });
    expect(res.statusCode).toBe(400);
    expect(res.json().system).toMatchObject({ inputs: ['name'], errors: ['Required field'] });
  });

  it('answers a server fault with 500, a generic message and the request id, never the detail', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/p247/test/boom/?language=en' });
    expect(res.statusCode).toBe(500);
    const [message] = res.json().system.errors;
    expect(message).toMatch(/^Internal error\. Reference: [0-9a-f-]{36}$/);
    expect(res.body).not.toContain('hunter2');
  });

  it('refuses a body over the limit with 413 and keeps serving', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/p247/test/echo/', headers: form, payload: `name=${'a'.repeat(300 * 1024)}` });
    expect(res.statusCode).toBe(413);
    expect(res.json().system.valid).toBe(false);
  });

  it('refuses a call without the request header, and one from a foreign origin', async () => {
    const noHeader = await ctx.app.inject({ method: 'POST', url: '/p247/test/echo/', headers: { 'content-type': form['content-type'] }, payload: 'name=a' });
    expect(noHeader.statusCode).toBe(403);
    const foreign = await ctx.app.inject({ method: 'POST', url: '/p247/test/echo/', headers: { ...form, origin: 'https://evil.example' }, payload: 'name=a' });
    expect(foreign.statusCode).toBe(403);
    const crossSite = await ctx.app.inject({ method: 'GET', url: '/p247/config/get/', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.statusCode).toBe(403);
  });

  it('publishes an OpenAPI document generated from the route schemas', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/p247/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().paths['/config/get/'].get).toBeDefined();
  });

  it('sends the security headers: CSP without inline script, no framing, nosniff', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/p247/config/get/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['strict-transport-security']).toBeUndefined(); // plain http here
  });

  it('asks browsers for HTTPS only when the panel is published over https', async () => {
    const tls = await openTestApp(kind, { publicOrigin: 'https://panel.example.com' });
    try {
      const res = await tls.app.inject({ method: 'GET', url: '/p247/config/get/' });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    } finally {
      await tls.close();
    }
  });
});
