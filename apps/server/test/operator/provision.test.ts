import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSession, SESSION_COOKIE } from '../../src/modules/session/sessions.ts';
import { createToken } from '../../src/modules/token/tokens.ts';
import { verifyPassword } from '../../src/passwords.ts';
import { login } from '../account/helpers.ts';
import { whileApplying } from '../domain/helpers.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { call, operatorToken, uniqueRealm } from './helpers.ts';

const EN = { 'accept-language': 'en' };
const contact = {
  isOrg: false,
  firstName: 'Ana',
  lastName: 'Pons',
  identNumber: '12345678Z',
  email: 'ana@example.com',
  phone: '+34.971000000',
  address: 'Carrer Major 1',
  postalCode: '07001',
  city: 'Palma',
  country: 'ES',
};

describeStores('the operator provisioning calls on %s', (kind) => {
  let ctx: TestContext;
  let token: string;
  let realm: string;
  // The test app runs no worker: a call that waits for its registry change (a registration) has it applied meanwhile.
  const op = (path: string, body: unknown) => whileApplying(ctx.app.runtime.outbox, call(ctx.app, 'POST', path, token, body, EN));
  beforeAll(async () => {
    ctx = await openTestApp(kind);
    token = await operatorToken(ctx);
    realm = uniqueRealm();
  });
  afterAll(() => ctx.close());

  it('creates a realm, and refuses the same one again with 422 and the reason', async () => {
    const res = await op('realm/create/', { realm });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: realm });
    const again = await op('realm/create/', { realm });
    expect(again.status).toBe(422);
    expect(again.errors).toEqual([`Refused: Realm "${realm}" already exists`]);
  });

  it('creates a user with a generated password shown once, which signs in', async () => {
    const res = await op('user/create/', { realm, username: 'ana' });
    expect(res.status).toBe(200);
    const { password } = res.body.data;
    expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const signIn = await login(ctx, { domainName: realm, username: 'ana', password });
    expect(signIn.statusCode).toBe(200);
  });

  it('resets a password to the one sent, answering no password back', async () => {
    const res = await op('user/password/', { realm, username: 'ana', password: 'operator-set-1' });
    expect(res.status).toBe(200);
    expect(res.body.data.password).toBeUndefined();
    const row = await ctx.store.selectFrom('user').select('password_hash').where('username', '=', 'ana').executeTakeFirstOrThrow();
    expect(await verifyPassword(row.password_hash, 'operator-set-1')).toBe(true);
  });

  it("resets a user's second factors, answering how many went", async () => {
    const res = await op('user/factors/reset/', { realm, username: 'ana' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ removed: 0 });
    expect((await op('user/factors/reset/', { realm, username: 'nadie' })).status).toBe(422);
  });

  it('creates an item, grants a user on it and sets its hosting limits', async () => {
    const item = await op('item/create/', { realm, reference: 'tienda-op.es', service: 'normal', mail: true, expires: '2030-05-01' });
    expect(item.status).toBe(200);
    expect(item.body.data).toMatchObject({ reference: 'tienda-op.es', suspended: false });
    const service = await ctx.store.selectFrom('service').selectAll().where('item_id', '=', item.body.data.id).executeTakeFirstOrThrow();
    expect(Number(service.expire_at)).toBe(Date.parse('2030-05-01T00:00:00Z') / 1000);
    expect((await op('grant/', { realm, username: 'ana', reference: 'tienda-op.es', areas: 'all=write' })).status).toBe(200);
    const granted = await ctx.store.selectFrom('permission').select('level').where('item_id', '=', item.body.data.id).execute();
    expect(granted.length).toBeGreaterThan(5);
    const limits = await op('service/limits/', { realm, reference: 'tienda-op.es', spaceWeb: 5 * 1024 ** 3, databases: 2 });
    expect(limits.status).toBe(200);
    const after = await ctx.store.selectFrom('service').selectAll().where('item_id', '=', item.body.data.id).executeTakeFirstOrThrow();
    expect([Number(after.limit_space_web), Number(after.limit_databases)]).toEqual([5 * 1024 ** 3, 2]);
    const bad = await op('grant/', { realm, username: 'ana', reference: 'tienda-op.es', areas: 'all=owner' });
    expect(bad.errors).toEqual(['Refused: "owner" is not a level: use disabled, read, write']);
  });

  it('refuses a malformed body with 400 naming the field, changing nothing', async () => {
    const res = await op('item/create/', { realm, reference: 'x-op.es', service: 'huge' });
    expect(res.status).toBe(400);
    expect(res.body.system.inputs).toEqual(['service']);
    expect(await ctx.store.selectFrom('item').select('id').where('reference', '=', 'x-op.es').executeTakeFirst()).toBeUndefined();
  });

  it('suspends a realm: its users are told so at sign-in; unsuspending lets them in again', async () => {
    const suspended = await op('realm/suspend/', { realm });
    expect(suspended.body.data).toEqual({ name: realm, suspended: true });
    const refused = await login(ctx, { domainName: realm, username: 'ana', password: 'operator-set-1' }, EN);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().system.errors).toEqual(['The account is suspended: contact your provider']);
    // A wrong password learns nothing about the suspension.
    const wrong = await login(ctx, { domainName: realm, username: 'ana', password: 'not-the-password' }, EN);
    expect(wrong.statusCode).toBe(401);
    expect((await op('realm/unsuspend/', { realm })).body.data).toEqual({ name: realm, suspended: false });
    expect((await login(ctx, { domainName: realm, username: 'ana', password: 'operator-set-1' })).statusCode).toBe(200);
  });

  it("ends a suspended realm's open sessions and API tokens until it is unsuspended", async () => {
    const user = await ctx.store.selectFrom('user').select('id').where('username', '=', 'ana').executeTakeFirstOrThrow();
    const session = { cookie: `${SESSION_COOKIE}=${await createSession(ctx.store, user.id)}`, 'x-dd-request': '1' };
    const { token: apiToken } = await createToken(ctx.store, user.id, {
      name: 's',
      scope: { domain: 'read' },
      items: null,
      cidrs: [],
      expiresAt: null,
    });
    const info = () => ctx.app.inject({ method: 'POST', url: '/p247/user/info/', headers: session });
    const kinds = () => ctx.app.inject({ method: 'GET', url: '/p247/list/kinds/', headers: { authorization: `Bearer ${apiToken}` } });
    expect((await info()).json().system.statusCode).toBe(200);
    expect((await kinds()).statusCode).toBe(200);
    await op('realm/suspend/', { realm });
    expect((await info()).json().system.statusCode).toBe(101);
    expect((await kinds()).statusCode).toBe(401);
    await op('realm/unsuspend/', { realm });
    expect((await kinds()).statusCode).toBe(200);
  });

  it('does not lift with unsuspend a realm the CLI disabled', async () => {
    const other = uniqueRealm();
    await op('realm/create/', { realm: other });
    await ctx.store.updateTable('realm').set({ disabled: 1 }).where('name', '=', other).execute();
    await op('realm/unsuspend/', { realm: other });
    const row = await ctx.store.selectFrom('realm').select('disabled').where('name', '=', other).executeTakeFirstOrThrow();
    expect(row.disabled).toBe(1);
  });

  it('suspends and unsuspends an item, shown so on its page, which keeps its mail service', async () => {
    const res = await op('item/suspend/', { realm, reference: 'tienda-op.es' });
    expect(res.body.data).toMatchObject({ reference: 'tienda-op.es', suspended: true });
    const item = await ctx.store
      .selectFrom('item')
      .select(['id', 'suspended'])
      .where('reference', '=', 'tienda-op.es')
      .executeTakeFirstOrThrow();
    expect(item.suspended).toBe(1);
    expect(await ctx.store.selectFrom('mail_service').select('item_id').where('item_id', '=', item.id).executeTakeFirst()).toBeDefined();
    // The customer's item page reads it from the item's permission set.
    const user = await ctx.store.selectFrom('user').select('id').where('username', '=', 'ana').executeTakeFirstOrThrow();
    const session = { cookie: `${SESSION_COOKIE}=${await createSession(ctx.store, user.id)}`, 'x-dd-request': '1' };
    const shown = async () =>
      (await ctx.app.inject({ method: 'POST', url: `/p247/permission/${item.id}/`, headers: session })).json().data.suspended;
    expect(await shown()).toBe(true);
    expect((await op('item/unsuspend/', { realm, reference: 'tienda-op.es' })).body.data.suspended).toBe(false);
    expect(await shown()).toBe(false);
  });

  it('checks availability and registers a domain with contacts through the registry driver', async () => {
    const check = await call(ctx.app, 'GET', 'domain/check/?name=Nuevo-Op.es', token);
    expect(check.body.data).toEqual({ name: 'nuevo-op.es', available: true });
    const res = await op('domain/register/', {
      realm,
      name: 'nuevo-op.es',
      years: 2,
      registrant: contact,
      nameServers: ['ns1.host.test', 'ns2.host.test'],
    });
    expect(res.status).toBe(200);
    const info = await ctx.app.runtime.drivers.registry.info(res.body.data.id);
    expect(info?.nameServers).toEqual(['ns1.host.test', 'ns2.host.test']);
    expect(info?.contacts.registrant).toMatchObject({ firstName: 'Ana', email: 'ana@example.com', country: 'ES' });
    expect(info?.contacts.tech).toMatchObject({ firstName: 'Ana' });
    expect((await call(ctx.app, 'GET', 'domain/check/?name=nuevo-op.es', token)).body.data.available).toBe(false);
    const taken = await op('domain/register/', { realm, name: 'nuevo-op.es', registrant: contact });
    expect(taken.status).toBe(422);
    expect(taken.errors).toEqual(['The domain nuevo-op.es is not available']);
  });

  it('records each operator write in the activity log with the operator as the actor', async () => {
    const rows = await ctx.store.selectFrom('audit_event').selectAll().where('action', '=', 'operator.realmCreate').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]).toMatchObject({ actor: 'operator', token_name: 'billing' });
  });
});
