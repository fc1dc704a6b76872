import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { FieldErrors } from '../src/http/errors.ts';
import { createAccount } from './fixtures.ts';
import { multipart } from './sites/helpers.ts';
import { describeStores, openTestApp, type TestContext } from './stores.ts';

describeStores('the API envelope on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await openTestApp(kind, { 'legal.jurisdiction': 'Manacor' });
    // Routes that exist only in this test, to exercise the body conventions end to end.
    ctx.app.post(
      '/p247/test/echo/',
      {
        config: { public: 'form' },
        schema: { body: z.object({ name: z.string().min(1), dns: z.array(z.string()).optional(), cert: z.string().optional() }) },
      },
      async (request) => ({ data: request.body, info: [{ key: 'main.success' }] }),
    );
    ctx.app.get('/p247/test/boom/', { config: { public: 'read' } }, async () => {
      throw new Error('database password is hunter2');
    });
    ctx.app.get('/p247/test/fields/', { config: { public: 'read' } }, async () => {
      throw new FieldErrors([
        { input: 'ip', key: 'validation.ipv4' },
        { input: 'name', key: 'validation.required' },
      ]);
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
    expect(body.data).toMatchObject({
      company: 'Atalaya',
      jurisdiction: 'Manacor',
      themeConfig: { logo: '/assets/images/logo.png', logo_mini: '/assets/images/logo_mini.png', color: 'indigo' },
    });
  });

  it('answers config from a frozen copy made at start, leaving the configuration itself unfrozen', async () => {
    const first = (await ctx.app.inject({ method: 'GET', url: '/p247/config/get/' })).body;
    expect((await ctx.app.inject({ method: 'GET', url: '/p247/config/get/' })).body).toBe(first);
    expect(Object.isFrozen(ctx.app.runtime.config.languages)).toBe(false);
    expect(Object.isFrozen(ctx.app.runtime.config.company)).toBe(false);
  });

  it('answers 404 in the envelope for an unknown route under /p247/', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/p247/no/such/route/' });
    expect(res.statusCode).toBe(404);
    expect(res.json().system).toMatchObject({ valid: false, statusCode: 404, errors: ['Recurso no encontrado'] });
  });

  it('reads URL-encoded bodies with repeated name[] fields as arrays and translates info', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/p247/test/echo/',
      headers: form,
      payload: 'name=a&dns[]=ns1.x.com&dns[]=ns2.x.com&language=en',
    });
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

  it('answers a malformed multipart body with 400 in the envelope, signed in or not', async () => {
    const acc = await createAccount(ctx.store, { users: { ana: 'all=write' }, items: [{ reference: 'mp.test', mail: true }] });
    const signedIn = await acc.as('ana');
    const truncated = '--B\r\nContent-Disposition: form-data; name="domainName"\r\n\r\nx\r\n--B\r\n';
    const bodies: [string, string][] = [
      ['multipart/form-data; boundary=B', truncated],
      ['multipart/form-data; boundary=B', '--B\r\nContent-Disposition: form-data; name="domainName"\r\n\r\nx'],
      ['multipart/form-data; boundary=B', '--B\r\nContent-Disp'],
      ['multipart/form-data; boundary=B', 'no parts at all'],
      ['multipart/form-data; boundary=B', '--B\r\nContent-Disposition: form-data; name="cert"; filename="c.pem"\r\n\r\n-----BEGIN'],
      ['multipart/form-data', truncated],
      ['multipart/form-data; boundary=', truncated],
    ];
    for (const [url, headers] of [
      ['/p247/user/login/', { 'x-dd-request': '1' }],
      ['/p247/contactmail/', signedIn],
      ['/p247/test/echo/', { 'x-dd-request': '1' }],
    ] as const) {
      for (const [type, payload] of bodies) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: `${url}?language=en`,
          headers: { ...headers, 'content-type': type },
          payload,
        });
        expect(res.statusCode, `${url} ${type} ${JSON.stringify(payload)}`).toBe(400);
        expect(res.json().system).toMatchObject({ valid: false, statusCode: 400, errors: ['The request is malformed'] });
      }
    }
  });

  const postForm = ({ payload, contentType }: ReturnType<typeof multipart>) =>
    ctx.app.inject({
      method: 'POST',
      url: '/p247/test/echo/?language=en',
      headers: { 'content-type': contentType, 'x-dd-request': '1' },
      payload,
    });

  it('refuses a multipart form over any of its limits whole with 413, never cut short', async () => {
    const kb = (n: number) => 'a'.repeat(n * 1024);
    /** `count` fields or files named `prefix0`, `prefix1`…, each holding `value`. */
    const many = (prefix: string, count: number, value: string) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, value]));
    const overLimits = {
      'a file over 64 KB': multipart({ name: 'x' }, { cert: kb(65) }),
      'a field over 64 KB': multipart({ name: kb(65) }),
      'six files': multipart({ name: 'x' }, many('cert', 6, 'c')),
      '101 fields': multipart(many('f', 101, 'v')),
      'a body over 256 KB in parts each within its limit': multipart({ name: 'x' }, many('cert', 5, kb(60))),
    };
    for (const [what, form] of Object.entries(overLimits)) {
      const res = await postForm(form);
      expect(res.statusCode, what).toBe(413);
      expect(res.json().system, what).toMatchObject({ valid: false, statusCode: 413, errors: ['The request is too large'] });
    }
    const accepted = await postForm(multipart({ name: kb(64), ...many('f', 99, 'v') }, { cert: kb(40) }));
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().data).toEqual({ name: kb(64), cert: kb(40) });
  });

  it('refuses a multipart body sent in chunks without a length once it passes 256 KB, and keeps serving', async () => {
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const chunk = new TextEncoder().encode(`--B\r\nContent-Disposition: form-data; name="name"\r\n\r\n${'a'.repeat(32 * 1024)}`);
    let sent = 0;
    const body = new ReadableStream({
      pull(controller) {
        // Far more than the limit, never finished: the server must stop reading, not wait for the end.
        if (sent++ < 400) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await fetch(`${address}/p247/test/echo/?language=en`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=B', 'x-dd-request': '1' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).system.errors).toEqual(['The request is too large']);
    expect(sent).toBeLessThan(400);
    expect((await postForm(multipart({ name: 'after' }))).json().data).toEqual({ name: 'after' });
  });

  it('answers what the router refuses in the envelope too, without echoing the path (found by the fuzz test)', async () => {
    const long = await ctx.app.inject({
      method: 'GET',
      url: `/p247/domain/${'9'.repeat(300)}/?language=en`,
      headers: { 'x-dd-request': '1' },
    });
    expect(long.statusCode).toBe(404);
    expect(long.json().system).toMatchObject({ valid: false, statusCode: 404, errors: ['Resource not found'] });
    const bad = await ctx.app.inject({ method: 'GET', url: '/p247/domain/%zz/', headers: { 'x-dd-request': '1' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().system).toMatchObject({ valid: false, statusCode: 400 });
    expect(bad.body).not.toContain('%zz');
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
    expect(message).toMatch(/^Internal error\. Reference: [\w-]{8}-[0-9a-z]+$/);
    expect(res.body).not.toContain('hunter2');
  });

  it('refuses a body over the limit with 413 and keeps serving', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/p247/test/echo/', headers: form, payload: `name=${'a'.repeat(300 * 1024)}` });
    expect(res.statusCode).toBe(413);
    expect(res.json().system.valid).toBe(false);
  });

  it('refuses a call without the request header, and one from a foreign origin', async () => {
    const noHeader = await ctx.app.inject({
      method: 'POST',
      url: '/p247/test/echo/',
      headers: { 'content-type': form['content-type'] },
      payload: 'name=a',
    });
    expect(noHeader.statusCode).toBe(403);
    const foreign = await ctx.app.inject({
      method: 'POST',
      url: '/p247/test/echo/',
      headers: { ...form, origin: 'https://evil.example' },
      payload: 'name=a',
    });
    expect(foreign.statusCode).toBe(403);
    const crossSite = await ctx.app.inject({ method: 'GET', url: '/p247/config/get/', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.statusCode).toBe(403);
  });

  it.each([
    ['same-origin', 200],
    ['none', 200],
    ['same-site', 403],
    ['cross-site', 403],
  ])('answers a call whose Sec-Fetch-Site is %s with %i: a sibling subdomain is another site', async (site, status) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/p247/test/echo/',
      headers: { ...form, 'sec-fetch-site': site },
      payload: 'name=a',
    });
    expect(res.statusCode).toBe(status);
  });

  // Without publicOrigin the panel answers to loopback names only (decision 015), so its own host here is localhost.
  it('accepts the Origin of the panel’s own host over http or https, and no other', async () => {
    const call = (origin: string) =>
      ctx.app.inject({ method: 'POST', url: '/p247/test/echo/', headers: { ...form, host: 'localhost:8080', origin }, payload: 'name=a' });
    expect((await call('http://localhost:8080')).statusCode).toBe(200);
    expect((await call('https://localhost:8080')).statusCode).toBe(200);
    for (const origin of ['http://localhost', 'http://evil.test:8080', 'http://localhost:8080.evil.test', 'null']) {
      expect((await call(origin)).statusCode, origin).toBe(403);
    }
  });

  it('trusts the configured public origin behind a proxy, whatever the Host header says', async () => {
    const proxied = await openTestApp(kind, { publicOrigin: 'https://panel.example.com' });
    try {
      const call = (origin: string) =>
        proxied.app.inject({
          method: 'POST',
          url: '/p247/user/logout/',
          headers: { 'x-dd-request': '1', host: '127.0.0.1:8080', origin },
        });
      expect((await call('https://panel.example.com')).statusCode).toBe(200);
      expect((await call('http://127.0.0.1:8080')).statusCode).toBe(200);
      expect((await call('https://other.example.com')).statusCode).toBe(403);
    } finally {
      await proxied.close();
    }
  });

  it('leaves pages and assets outside the API to the browser: a link from another site opens the sign-in page', async () => {
    const page = await ctx.app.inject({
      method: 'GET',
      url: '/login/',
      headers: { 'sec-fetch-site': 'cross-site', origin: 'https://mail.example' },
    });
    expect(page.statusCode).not.toBe(403);
    // An unknown API path answers the envelope's 404, not a demand for a session.
    const unknown = await ctx.app.inject({ method: 'GET', url: '/p247/no/such/call/', headers: { 'x-dd-request': '1' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().system.valid).toBe(false);
  });

  it('says why it refused a cross-site call or one without the request header, and asks for a session last', async () => {
    const crossSite = await ctx.app.inject({
      method: 'GET',
      url: '/p247/config/get/',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.json().system.errors).toEqual(['Petición rechazada: origen no permitido']);
    // A call that needs a session is checked for its header first: 403, not 401, without it.
    const noHeader = await ctx.app.inject({ method: 'GET', url: '/p247/permission/list/' });
    expect(noHeader.statusCode).toBe(403);
    expect(noHeader.json().system.errors).toEqual(['Petición rechazada: origen no permitido']);
    const noSession = await ctx.app.inject({ method: 'GET', url: '/p247/permission/list/', headers: { 'x-dd-request': '1' } });
    expect(noSession.statusCode).toBe(401);
    expect(noSession.json().system.statusCode).toBe(101);
  });

  it('needs the request header on public calls with effects, but not on public reads, HEAD included', async () => {
    expect((await ctx.app.inject({ method: 'HEAD', url: '/p247/config/get/' })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/p247/config/get/' })).statusCode).toBe(200);
    const noHeader = await ctx.app.inject({ method: 'POST', url: '/p247/user/logout/' });
    expect(noHeader.statusCode).toBe(403);
    expect(noHeader.json().system.errors).toHaveLength(1);
    expect((await ctx.app.inject({ method: 'POST', url: '/p247/user/logout/', headers: { 'x-dd-request': '0' } })).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'POST', url: '/p247/user/logout/', headers: { 'x-dd-request': '1' } })).statusCode).toBe(200);
  });

  it('publishes an OpenAPI document generated from the route schemas', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/p247/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().paths['/config/get/'].get).toBeDefined();
  });
});
