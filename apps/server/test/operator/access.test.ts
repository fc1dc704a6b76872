import { OPERATOR_LIMITS } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createToken } from '../../src/modules/token/tokens.ts';
import { hashSecret } from '../../src/secrets.ts';
import { runAdmin } from '../admin.ts';
import { type Account, createAccount } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { call, operatorToken, uniqueRealm } from './helpers.ts';

describeStores('who reaches the operator API on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  let operator: string;
  beforeAll(async () => {
    ctx = await openTestApp(kind);
    acc = await createAccount(ctx.store, {
      users: { ana: 'all=write' },
      items: [{ reference: 'op-uno.es', domain: true, service: 'normal' }],
    });
    operator = await operatorToken(ctx);
  });
  afterAll(() => ctx.close());

  it('creates an operator token with the CLI, printed once and stored hashed, lists it without the secret and revokes it', async () => {
    const out = await runAdmin(ctx.app.runtime, 'operator-token-create', [], {
      name: 'billing',
      scope: 'provision,domains',
      cidr: '127.0.0.0/8',
      expires: '2099-01-31',
    });
    const token = /ato_[A-Za-z0-9_-]{43}/.exec(out)?.[0];
    expect(token).toBeDefined();
    const row = await ctx.store
      .selectFrom('operator_token')
      .selectAll()
      .where('secret_hash', '=', hashSecret(token!))
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.scopes)).toEqual(['provision', 'domains']);
    const listed = await runAdmin(ctx.app.runtime, 'operator-tokens', []);
    expect(listed).toContain(`${row.id}\tbilling\tprovision,domains\t127.0.0.0/8`);
    expect(listed).not.toContain(token);
    expect((await call(ctx.app, 'POST', 'realm/create/', token, { realm: uniqueRealm() })).status).toBe(200);
    await runAdmin(ctx.app.runtime, 'operator-token-revoke', [String(row.id)]);
    const after = await call(ctx.app, 'POST', 'realm/create/', token, { realm: uniqueRealm() });
    expect(after.status).toBe(401);
  });

  it('refuses a CLI scope that is not an operator scope', async () => {
    await expect(runAdmin(ctx.app.runtime, 'operator-token-create', [], { name: 'x', scope: 'provision,all' })).rejects.toThrow(
      '"all" is not an operator scope',
    );
  });

  it('answers 401 to an operator call without a token, a signed-in session included', async () => {
    expect((await call(ctx.app, 'POST', 'realm/create/', undefined, { realm: uniqueRealm() })).status).toBe(401);
    const session = await acc.as('ana');
    const res = await call(ctx.app, 'POST', 'realm/create/', undefined, { realm: uniqueRealm() }, { ...session, 'accept-language': 'en' });
    expect(res.status).toBe(401);
    expect(res.errors).toEqual(['This operator call needs an operator token (Authorization: Bearer ato_…)']);
  });

  it("refuses a customer's API token on an operator call with 403", async () => {
    const { token } = await createToken(ctx.store, acc.users.ana, {
      name: 's',
      scope: { domain: 'write' },
      items: null,
      cidrs: [],
      expiresAt: null,
    });
    const res = await call(ctx.app, 'POST', 'realm/create/', token, { realm: uniqueRealm() }, { 'accept-language': 'en' });
    expect(res.status).toBe(403);
    expect(res.errors).toEqual(["A user's API token cannot make operator calls"]);
  });

  it('refuses an operator token on a customer call with 403', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/p247/domain/${acc.items['op-uno.es']}/`,
      headers: { authorization: `Bearer ${operator}`, 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().system.errors).toEqual(['An operator token is valid only on the operator calls (/p247/operator/…)']);
  });

  it('answers 401 to an expired operator token and to one used from outside its address ranges', async () => {
    const expired = await operatorToken(ctx, ['provision'], { expiresAt: Math.floor(Date.now() / 1000) - 1 });
    expect((await call(ctx.app, 'POST', 'realm/create/', expired, { realm: uniqueRealm() })).status).toBe(401);
    const elsewhere = await operatorToken(ctx, ['provision'], { cidrs: ['192.0.2.0/24'] });
    expect((await call(ctx.app, 'POST', 'realm/create/', elsewhere, { realm: uniqueRealm() })).status).toBe(401);
    const here = await operatorToken(ctx, ['provision'], { cidrs: ['127.0.0.0/8'] });
    expect((await call(ctx.app, 'POST', 'realm/create/', here, { realm: uniqueRealm() })).status).toBe(200);
  });

  it('refuses with 403 a call its scope does not cover, each scope its own calls', async () => {
    const domainsOnly = await operatorToken(ctx, ['domains']);
    const refused = await call(ctx.app, 'POST', 'realm/create/', domainsOnly, { realm: uniqueRealm() }, { 'accept-language': 'en' });
    expect(refused.status).toBe(403);
    expect(refused.errors).toEqual(["The operator token's scope does not cover this call (it needs provision)"]);
    expect((await call(ctx.app, 'GET', 'domain/check/?name=libre-op.es', domainsOnly)).status).toBe(200);
    expect((await call(ctx.app, 'GET', 'webhooks/', domainsOnly)).status).toBe(403);
    const provisionOnly = await operatorToken(ctx, ['provision']);
    expect((await call(ctx.app, 'GET', 'domain/check/?name=libre-op.es', provisionOnly)).status).toBe(403);
  });

  it('lists the operator calls in the OpenAPI document under their own tag and security scheme', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/p247/openapi.json' })).json();
    const create = doc.paths['/operator/realm/create/'].post;
    expect(create.tags).toEqual(['operator']);
    expect(create.security).toEqual([{ operator: [] }]);
    expect(doc.components.securitySchemes.operator.scheme).toBe('bearer');
  });

  it('limits each operator token to its calls per minute: the one past the limit answers 429 with Retry-After, another token still answers', async () => {
    const busy = await operatorToken(ctx, ['domains']);
    const row = await ctx.store
      .selectFrom('operator_token')
      .select('id')
      .where('secret_hash', '=', hashSecret(busy))
      .executeTakeFirstOrThrow();
    const check = () => call(ctx.app, 'GET', 'domain/check/?name=libre-op.es', busy, undefined, { 'accept-language': 'en' });
    expect((await check()).status).toBe(200);
    // The minute's window as the calls before this one left it: one short of the limit.
    await ctx.store
      .updateTable('counter')
      .set({ hits: OPERATOR_LIMITS.perMinute - 1 })
      .where('key', '=', `operator:${row.id}`)
      .execute();
    expect((await check()).status).toBe(200);
    const refused = await check();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.errors).toEqual([expect.stringMatching(/^Too many requests with this operator token\. Retry in \d+ seconds$/)]);
    expect((await call(ctx.app, 'GET', 'domain/check/?name=libre-op.es', operator)).status).toBe(200);
  });
});
