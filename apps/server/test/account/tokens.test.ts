import { parseLevels } from '@atalaya/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { grant, setDisabled } from '../../src/modules/provisioning/accounts.ts';
import { createToken as storeToken, type TokenSpec } from '../../src/modules/token/tokens.ts';
import { hashSecret } from '../../src/secrets.ts';
import { openStore } from '../../src/store/db.ts';
import { type Account, createAccount, send, TEST_PASSWORD } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

const map = (text: string) => {
  const parsed = parseLevels(text);
  if (!('map' in parsed)) throw new Error(text);
  return parsed.map;
};
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describeStores('API tokens on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  let ana: Record<string, string>;
  /** A token of `username` straight in the store (the create call has tests of its own). */
  const token = async (username: string, spec: Partial<TokenSpec> = {}) =>
    (
      await storeToken(ctx.store, acc.users[username], {
        name: 'script',
        scope: map('all=write'),
        items: null,
        cidrs: [],
        expiresAt: null,
        ...spec,
      })
    ).token;
  const zone = (item = 'uno.es') => `/service/${acc.items[item]}/dns/list/`;
  let records = 0;
  // A new name each time: the same record twice would be refused as a duplicate.
  const createRecord = (headers: Record<string, string>, item = 'uno.es') =>
    send(ctx.app, 'POST', `/service/${acc.items[item]}/dns/create/`, headers, {
      type: 'A',
      zona: `api${++records}`,
      value: '203.0.113.9',
      ttl: 600,
    });
  const createCall = (fields: Record<string, string | string[]>, headers = ana) =>
    send(ctx.app, 'POST', '/user/tokens/create/', headers, fields);

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    acc = await createAccount(ctx.store, {
      users: { ana: 'all=write', lector: 'all=read', quito: 'all=write', gone: 'all=write', flood: 'all=read' },
      items: [
        { reference: 'uno.es', domain: true, service: 'normal' },
        { reference: 'dos.es', domain: true, service: 'normal' },
      ],
    });
    ana = await acc.as('ana');
  });
  afterAll(() => ctx.close());

  describe('creating one in Preferences', () => {
    it('asks for the current password, shows the secret once and keeps only its hash', async () => {
      const res = await createCall({
        name: 'deploy',
        password: TEST_PASSWORD,
        scope: 'all=read,service_dnszone=write',
        items: [String(acc.items['uno.es'])],
        expires: '2099-12-31',
        cidrs: '192.0.2.0/24, 2001:db8::/32',
      });
      expect(res.status).toBe(200);
      const { token, item } = res.body.data;
      expect(token).toMatch(/^atl_[A-Za-z0-9_-]{43}$/);
      expect(item).toMatchObject({
        name: 'deploy',
        items: [{ id: acc.items['uno.es'], reference: 'uno.es' }],
        cidrs: ['192.0.2.0/24', '2001:db8::/32'],
        expiresAt: Date.parse('2100-01-01T00:00:00Z') / 1000,
        lastUsedAt: null,
      });
      expect(item.scope).toMatchObject({ domain: 'read', service_dnszone: 'write' });
      const stored = await ctx.store.selectFrom('api_token').selectAll().where('id', '=', item.id).executeTakeFirstOrThrow();
      expect(stored.secret_hash).toBe(hashSecret(token));
      expect(JSON.stringify(stored)).not.toContain(token.slice(4));
      const list = await send(ctx.app, 'GET', '/user/tokens/', ana);
      expect(list.body.data.tokens.map((t: { name: string }) => t.name)).toContain('deploy');
      expect(list.raw).not.toContain(token);
      expect(list.body.data.ceiling).toMatchObject({ domain: 'write', servicemail: 'write' });
    });

    it('refuses a wrong current password under its field, counted with the change-password limit', async () => {
      const other = await createAccount(ctx.store, { users: { u: 'all=read' }, items: [{ reference: 'pw.es', domain: true }] });
      const headers = await other.as('u');
      for (let i = 0; i < 5; i++) {
        const wrong = await createCall({ name: 'x', password: 'not-the-password', scope: 'all=read' }, headers);
        expect(wrong.status).toBe(400);
        expect(wrong.body.system).toMatchObject({ inputs: ['password'], errors: ['La contraseña actual no es correcta'] });
      }
      const locked = await createCall({ name: 'x', password: TEST_PASSWORD, scope: 'all=read' }, headers);
      expect(locked.status).toBe(429);
      expect(await ctx.store.selectFrom('api_token').select('id').where('user_id', '=', other.users.u).execute()).toEqual([]);
    });

    it.each([
      [{ scope: 'all=write' }, 'scope', 'Un token no puede tener más permiso del que tienes'],
      [{ scope: 'all=disabled' }, 'scope', 'Elige al menos un área con lectura o escritura'],
      [{ scope: 'domain=owner' }, 'scope', 'Elige al menos un área con lectura o escritura'],
      [{ scope: 'all=read', expires: '2001-01-01' }, 'expires', 'La fecha de caducidad debe ser posterior a hoy'],
      [{ scope: 'all=read', expires: '2099-02-30' }, 'expires', 'Fecha no válida (AAAA-MM-DD)'],
      [{ scope: 'all=read', cidrs: '192.0.2.0/33' }, 'cidrs', expect.stringContaining('Rango no válido')],
      [{ scope: 'all=read', cidrs: '2001:db8::/129' }, 'cidrs', expect.stringContaining('Rango no válido')],
      [{ scope: 'all=read', name: '' }, 'name', 'Campo obligatorio'],
    ])('refuses %o under its field, creating nothing', async (fields, input, message) => {
      const headers = await acc.as('lector');
      const res = await createCall({ name: 'n', password: TEST_PASSWORD, ...fields }, headers);
      expect(res.status).toBe(400);
      expect(res.body.system).toMatchObject({ inputs: [input], errors: [message] });
      expect(await ctx.store.selectFrom('api_token').select('id').where('user_id', '=', acc.users.lector).execute()).toEqual([]);
    });

    it('refuses an item of another realm as one the user cannot see', async () => {
      const other = await createAccount(ctx.store, { users: { x: 'all=write' }, items: [{ reference: 'ajeno.es', domain: true }] });
      const res = await createCall({ name: 'n', password: TEST_PASSWORD, scope: 'all=read', items: [String(other.items['ajeno.es'])] });
      expect(res.body.system).toMatchObject({ inputs: ['items'], errors: ['Elige solo elementos que puedas ver'] });
    });

    it('revokes a token at once: its next call answers 401', async () => {
      const created = await createCall({ name: 'short', password: TEST_PASSWORD, scope: 'all=read' });
      const { token, item } = created.body.data;
      expect((await send(ctx.app, 'GET', zone(), bearer(token))).status).toBe(200);
      const revoked = await send(ctx.app, 'POST', `/user/tokens/${item.id}/revoke/`, ana, {});
      expect(revoked.status).toBe(200);
      expect(revoked.body.system.info).toEqual(['Token revocado']);
      const after = await send(ctx.app, 'GET', zone(), bearer(token));
      expect(after.status).toBe(401);
      expect(after.body.system.errors[0]).toMatch(/token de API no es válido/);
    });

    it('is revoked, and cut by a grant, in another server process on the same store at its next call', async () => {
      const second = await buildApp({ config: ctx.config, store: await openStore(ctx.config), worker: false });
      try {
        const created = await createCall({ name: 'elsewhere', password: TEST_PASSWORD, scope: 'all=write' });
        const { token: t, item } = created.body.data;
        const other = await createAccount(ctx.store, {
          users: { p: 'all=write' },
          items: [{ reference: 'proc.es', domain: true, service: 'normal' }],
        });
        const theirs = await storeToken(ctx.store, other.users.p, {
          name: 'p',
          scope: map('all=write'),
          items: null,
          cidrs: [],
          expiresAt: null,
        });
        const dnsOf = `/service/${other.items['proc.es']}/dns/create/`;
        const record = (zona: string) => ({ type: 'A', zona, value: '203.0.113.9', ttl: 600 });
        // Both warm the second process's caches.
        expect((await send(second, 'GET', zone(), bearer(t))).status).toBe(200);
        expect((await send(second, 'POST', dnsOf, bearer(theirs.token), record('p1'))).status).toBe(200);
        expect((await send(ctx.app, 'POST', `/user/tokens/${item.id}/revoke/`, ana, {})).status).toBe(200);
        expect((await send(second, 'GET', zone(), bearer(t))).status).toBe(401);
        await grant(ctx.store, other.realm, 'p', 'proc.es', { service_dnszone: 'read' });
        expect((await send(second, 'POST', dnsOf, bearer(theirs.token), record('p2'))).status).toBe(403);
      } finally {
        const store = second.runtime.store;
        await second.close();
        await store.destroy();
      }
    });

    it("answers 404 when revoking another user's token", async () => {
      const theirs = await storeToken(ctx.store, acc.users.lector, {
        name: 'l',
        scope: map('all=read'),
        items: null,
        cidrs: [],
        expiresAt: null,
      });
      expect((await send(ctx.app, 'POST', `/user/tokens/${theirs.id}/revoke/`, ana, {})).status).toBe(404);
    });
  });

  describe('calling the API with one', () => {
    it('works without cookie and without the CSRF header, while a cookie call without the header is still refused', async () => {
      const t = await token('ana');
      const withToken = await send(ctx.app, 'GET', '/permission/list/', bearer(t));
      expect(withToken.status).toBe(200);
      expect(withToken.body.data.map((i: { reference: string }) => i.reference)).toEqual(['dos.es', 'uno.es']);
      expect((await createRecord(bearer(t))).status).toBe(200);
      const { 'x-dd-request': _, ...cookieOnly } = ana;
      const refused = await send(ctx.app, 'GET', '/permission/list/', cookieOnly);
      expect(refused.status).toBe(403);
    });

    it('is refused with 403 under a Host that is not one of the panel’s names, though the token is good (DNS rebinding)', async () => {
      const t = await token('ana');
      const foreign = await send(ctx.app, 'GET', '/permission/list/', { ...bearer(t), host: 'rebound.evil.test' });
      expect(foreign.status).toBe(403);
      expect(foreign.body.system.errors).toEqual(['Petición rechazada: origen no permitido']);
      expect((await send(ctx.app, 'GET', '/permission/list/', { ...bearer(t), host: 'localhost:8080' })).status).toBe(200);
    });

    it('leaves its own name as the actor of what it changes in the activity log, and its creation and revocation under its user', async () => {
      const created = await createCall({ name: 'audited', password: TEST_PASSWORD, scope: 'all=write' });
      const { token: t, item } = created.body.data;
      const made = await createRecord(bearer(t));
      expect(made.status).toBe(200);
      await send(ctx.app, 'POST', `/user/tokens/${item.id}/revoke/`, ana, {});
      const events = await ctx.store
        .selectFrom('audit_event')
        .select(['action', 'actor', 'token_name', 'user_id', 'area'])
        .where('user_id', '=', acc.users.ana)
        .orderBy('id', 'desc')
        .limit(3)
        .execute();
      expect(events.reverse()).toEqual([
        { action: 'token_create', actor: 'user', token_name: '', user_id: acc.users.ana, area: 'account' },
        { action: 'dns.create', actor: 'token', token_name: 'audited', user_id: acc.users.ana, area: 'service_dnszone' },
        { action: 'token_revoke', actor: 'user', token_name: '', user_id: acc.users.ana, area: 'account' },
      ]);
    });

    it('cannot write with a read scope (403), though its user can', async () => {
      const t = await token('ana', { scope: map('all=read') });
      expect((await send(ctx.app, 'GET', zone(), bearer(t))).status).toBe(200);
      const write = await createRecord(bearer(t));
      expect(write.status).toBe(403);
      expect(write.body.system.errors).toEqual(['Sin permiso']);
    });

    it('never holds more than its user: a write scope of a reader still cannot write', async () => {
      const t = await token('lector');
      expect((await createRecord(bearer(t))).status).toBe(403);
    });

    it("sees only its item: any other answers 404 and is missing from the lists, even just after its user's own lists were read", async () => {
      // The user's own lists first: what the server keeps of them must never answer the token.
      expect((await send(ctx.app, 'GET', '/permission/list/', ana)).body.data).toHaveLength(2);
      expect((await send(ctx.app, 'POST', '/user/info/', ana, {})).body.data.total_domain).toBe(2);
      const t = await token('ana', { items: [acc.items['uno.es']] });
      expect((await send(ctx.app, 'GET', zone('uno.es'), bearer(t))).status).toBe(200);
      expect((await send(ctx.app, 'GET', zone('dos.es'), bearer(t))).status).toBe(404);
      expect((await send(ctx.app, 'POST', `/permission/${acc.items['dos.es']}/`, bearer(t), {})).status).toBe(404);
      const list = await send(ctx.app, 'GET', '/permission/list/', bearer(t));
      expect(list.body.data.map((i: { reference: string }) => i.reference)).toEqual(['uno.es']);
      const page = await send(ctx.app, 'GET', '/list/domain/?page=1', bearer(t));
      expect(page.body.data.rows.map((r: { reference: string }) => r.reference)).toEqual(['uno.es']);
      expect(page.body.data.total).toBe(1);
    });

    it.each([
      ['/contactmail/', 'sends mail as the user'],
      ['/user/info/', 'answers the last sign-in address and the preferences'],
      ['/user/preferences/', 'changes the language and theme'],
    ])('is refused (403) by %s, an account call that %s', async (url) => {
      const t = await token('ana', { scope: map('all=write') });
      const res = await send(ctx.app, 'POST', url, bearer(t), {});
      expect(res.status).toBe(403);
      expect(res.body.system.errors[0]).toMatch(/no con un token de API/);
    });

    it("reads a service's main view only with the service area itself in its scope, not one of its parts", async () => {
      const view = `/service/${acc.items['uno.es']}/`;
      expect((await send(ctx.app, 'GET', view, bearer(await token('ana', { scope: map('service_dnszone=write') })))).status).toBe(404);
      expect((await send(ctx.app, 'GET', view, bearer(await token('ana', { scope: map('service=read') })))).status).toBe(200);
      // A user with only the zone still sees the view in the browser: the rule is a token's.
      await grant(ctx.store, acc.realm, 'quito', 'uno.es', { service: 'disabled', service_dnszone: 'write' });
      expect((await send(ctx.app, 'GET', view, await acc.as('quito'))).status).toBe(200);
      await grant(ctx.store, acc.realm, 'quito', 'uno.es', { service: 'write' });
    });

    it('sees only the areas of its scope: an area outside it answers 404 and hides the item from lists of that kind', async () => {
      const t = await token('ana', { scope: map('domain=read') });
      expect((await send(ctx.app, 'GET', zone(), bearer(t))).status).toBe(404);
      const list = await send(ctx.app, 'GET', '/permission/list/', bearer(t));
      expect(list.body.data[0]).toMatchObject({ hasDomain: true, hasService: false });
      expect((await send(ctx.app, 'GET', '/list/kinds/', bearer(t))).body.data).toMatchObject({ domain: true, service: false });
      expect((await send(ctx.app, 'GET', '/list/service/?page=1', bearer(t))).body.data.total).toBe(0);
    });

    it('loses a right the moment its user loses the grant, and gets it back with it', async () => {
      const t = await token('quito');
      expect((await createRecord(bearer(t))).status).toBe(200);
      await grant(ctx.store, acc.realm, 'quito', 'uno.es', { service_dnszone: 'read' });
      expect((await createRecord(bearer(t))).status).toBe(403);
      await grant(ctx.store, acc.realm, 'quito', 'uno.es', { service_dnszone: 'disabled' });
      expect((await send(ctx.app, 'GET', zone(), bearer(t))).status).toBe(404);
      await grant(ctx.store, acc.realm, 'quito', 'uno.es', { service_dnszone: 'write' });
      expect((await createRecord(bearer(t))).status).toBe(200);
    });

    it.each([
      ['malformed', 'atl_short'],
      ['unknown', `atl_${'A'.repeat(43)}`],
      ['without its prefix', 'A'.repeat(47)],
    ])('answers 401 to a %s token', async (_, value) => {
      const res = await send(ctx.app, 'GET', zone(), bearer(value));
      expect(res.status).toBe(401);
      expect(res.body.system.errors[0]).toMatch(/token de API no es válido/);
    });

    it('answers 401 from the second its expiry comes, and not before', async () => {
      const t = await token('ana');
      const setExpiry = (at: number) =>
        ctx.store.updateTable('api_token').set({ expires_at: at }).where('secret_hash', '=', hashSecret(t)).execute();
      await setExpiry(Math.floor(Date.now() / 1000) + 60);
      expect((await send(ctx.app, 'GET', zone(), bearer(t))).status).toBe(200);
      await setExpiry(Math.floor(Date.now() / 1000));
      expect((await send(ctx.app, 'GET', zone(), bearer(t))).status).toBe(401);
    });

    it('answers 401 from outside its address ranges, IPv4 and IPv6, and records the last use and address', async () => {
      const t = await token('ana', { cidrs: ['192.0.2.0/24', '2001:db8::/32'] });
      const from = (remoteAddress: string) =>
        ctx.app.inject({ method: 'GET', url: `/p247${zone()}`, headers: bearer(t), remoteAddress }).then((r) => r.statusCode);
      expect(await from('192.0.2.200')).toBe(200);
      expect(await from('::ffff:192.0.2.7')).toBe(200);
      expect(await from('2001:db8:1::5')).toBe(200);
      expect(await from('192.0.3.1')).toBe(401);
      expect(await from('2001:db9::1')).toBe(401);
      const row = await ctx.store.selectFrom('api_token').selectAll().where('secret_hash', '=', hashSecret(t)).executeTakeFirstOrThrow();
      expect(row.last_ip).toBe('2001:db8:1::5');
      expect(row.last_used_at).toBeGreaterThan(0);
    });

    it('answers 401 while its realm is disabled, and works again once the realm is enabled', async () => {
      const t = await token('gone');
      expect((await send(ctx.app, 'GET', zone(), bearer(t))).status).toBe(200);
      await setDisabled(ctx.store, { realm: acc.realm }, true);
      try {
        expect((await send(ctx.app, 'GET', zone(), bearer(t))).status).toBe(401);
      } finally {
        await setDisabled(ctx.store, { realm: acc.realm }, false);
      }
      expect((await send(ctx.app, 'GET', zone(), bearer(t))).status).toBe(200);
    });

    it('is revoked when its user is disabled: enabling the user again brings it back no more', async () => {
      const t = await token('gone');
      expect((await send(ctx.app, 'GET', zone(), bearer(t))).status).toBe(200);
      await setDisabled(ctx.store, { realm: acc.realm, username: 'gone' }, true);
      expect((await send(ctx.app, 'GET', zone(), bearer(t))).status).toBe(401);
      await setDisabled(ctx.store, { realm: acc.realm, username: 'gone' }, false);
      expect((await send(ctx.app, 'GET', zone(), bearer(t))).status).toBe(401);
      expect(await ctx.store.selectFrom('api_token').select('id').where('user_id', '=', acc.users.gone).execute()).toEqual([]);
    });

    it.each([
      ['change the password', '/user/changepass/', { actualPassword: TEST_PASSWORD, password: 'a-new-password-1' }],
      ['create tokens', '/user/tokens/create/', { name: 'more', password: TEST_PASSWORD, scope: 'all=read' }],
      ['save preferences', '/user/preferences/', { theme: 'dark' }],
      ['sign out', '/user/logout/', {}],
      ['read the account, with its last sign-in', '/user/info/', {}],
    ])('cannot %s: 403 with a translated message', async (_, url, fields) => {
      const t = await token('ana');
      const res = await send(ctx.app, 'POST', url, bearer(t), fields);
      expect(res.status).toBe(403);
      expect(res.body.system.errors).toEqual(['Esta operación solo se puede hacer desde el panel, no con un token de API']);
      expect((await send(ctx.app, 'GET', '/user/tokens/', bearer(t))).status).toBe(403);
    });

    it('is rate limited per token: the 600th call of a minute goes through, the 601st answers 429', async () => {
      const t = await token('flood');
      const other = await token('flood');
      const id = (await ctx.store.selectFrom('api_token').select('id').where('secret_hash', '=', hashSecret(t)).executeTakeFirstOrThrow())
        .id;
      expect((await send(ctx.app, 'GET', zone(), bearer(t))).status).toBe(200);
      // 599 calls counted so far in this window: the next is the 600th.
      await ctx.store.updateTable('counter').set({ hits: 599 }).where('key', '=', `token:${id}`).execute();
      expect((await send(ctx.app, 'GET', zone(), bearer(t))).status).toBe(200);
      const refused = await send(ctx.app, 'GET', zone(), bearer(t));
      expect(refused.status).toBe(429);
      expect(refused.body.system.errors[0]).toMatch(/^Demasiadas peticiones con este token. Inténtalo de nuevo en \d+ segundos$/);
      expect((await send(ctx.app, 'GET', zone(), bearer(other))).status).toBe(200);
    });
  });

  it('declares the bearer scheme in the OpenAPI document, on every call a token may make and on none it may not', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/p247/openapi.json' })).json();
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const security = (path: string, method: string) => doc.paths[path][method].security;
    expect(security('/service/{id}/dns/create/', 'post')).toContainEqual({ bearer: [] });
    expect(security('/user/changepass/', 'post')).not.toContainEqual({ bearer: [] });
    expect(security('/user/tokens/create/', 'post')).not.toContainEqual({ bearer: [] });
  });
});
