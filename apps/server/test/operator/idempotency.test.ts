import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { cleanUp, IDEMPOTENCY_KEEP_DAYS } from '../../src/store/housekeeping.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { call, operatorToken, uniqueRealm } from './helpers.ts';

describeStores('Idempotency-Key on the operator writes on %s', (kind) => {
  let ctx: TestContext;
  let token: string;
  const realms = async (name: string) => (await ctx.store.selectFrom('realm').select('id').where('name', '=', name).execute()).length;
  const create = (app: TestContext['app'], realm: string, key: string) =>
    call(app, 'POST', 'realm/create/', token, { realm }, { 'idempotency-key': key, 'accept-language': 'en' });
  beforeAll(async () => {
    ctx = await openTestApp(kind);
    token = await operatorToken(ctx);
  });
  afterAll(() => ctx.close());

  it('answers the first result again to the same key and body, creating one realm', async () => {
    const realm = uniqueRealm();
    const first = await create(ctx.app, realm, 'order-1001');
    const second = await create(ctx.app, realm, 'order-1001');
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual(first.body.data);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await realms(realm)).toBe(1);
  });

  it('creates one realm from the same key sent concurrently, every answer the same', async () => {
    const realm = uniqueRealm();
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(ctx.app, realm, 'order-1002')));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => JSON.stringify(a.body.data))).size).toBe(1);
    expect(await realms(realm)).toBe(1);
  });

  it('answers the first result after the app restarts: the key lives in the store', async () => {
    const realm = uniqueRealm();
    const first = await create(ctx.app, realm, 'order-1003');
    const restarted = await buildApp({ config: ctx.config, store: ctx.store, worker: false });
    try {
      const again = await create(restarted, realm, 'order-1003');
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual(first.body.data);
      expect(again.headers['idempotent-replayed']).toBe('true');
    } finally {
      await restarted.close();
    }
    expect(await realms(realm)).toBe(1);
  });

  it('refuses another body under a used key with 422, changing nothing', async () => {
    const realm = uniqueRealm();
    await create(ctx.app, realm, 'order-1004');
    const other = uniqueRealm();
    const refused = await create(ctx.app, other, 'order-1004');
    expect(refused.status).toBe(422);
    expect(refused.errors).toEqual(['This Idempotency-Key was already used with another request; send a new key for a new request']);
    expect(await realms(other)).toBe(0);
  });

  it('treats the same fields in another order as the same body', async () => {
    const body = { realm: 'x', username: 'pepe', password: 'long-enough-1' };
    const realm = uniqueRealm();
    await call(ctx.app, 'POST', 'realm/create/', token, { realm });
    const send = (fields: Record<string, string>) => call(ctx.app, 'POST', 'user/create/', token, fields, { 'idempotency-key': 'user-1' });
    const first = await send({ ...body, realm });
    const reordered = await send({ password: body.password, username: body.username, realm });
    expect(first.status).toBe(200);
    expect(reordered.headers['idempotent-replayed']).toBe('true');
  });

  it('keeps nothing for a refused write, so its retry runs again', async () => {
    const realm = uniqueRealm();
    const early = await call(
      ctx.app,
      'POST',
      'user/create/',
      token,
      { realm, username: 'ana', password: 'long-enough-1' },
      { 'idempotency-key': 'user-2' },
    );
    expect(early.status).toBe(422);
    await call(ctx.app, 'POST', 'realm/create/', token, { realm });
    const retried = await call(
      ctx.app,
      'POST',
      'user/create/',
      token,
      { realm, username: 'ana', password: 'long-enough-1' },
      { 'idempotency-key': 'user-2' },
    );
    expect(retried.status).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it('keeps keys per operator token: another token may use the same key for its own request', async () => {
    const other = await operatorToken(ctx, ['provision']);
    const realm = uniqueRealm();
    await create(ctx.app, uniqueRealm(), 'shared-key');
    const res = await call(ctx.app, 'POST', 'realm/create/', other, { realm }, { 'idempotency-key': 'shared-key' });
    expect(res.status).toBe(200);
    expect(await realms(realm)).toBe(1);
  });

  it('refuses a malformed key with 400', async () => {
    const res = await create(ctx.app, uniqueRealm(), 'with space');
    expect(res.status).toBe(400);
    expect(res.errors).toEqual(['The Idempotency-Key header must have between 1 and 255 visible ASCII characters']);
  });

  it('forgets a key after the days housekeeping keeps it, and not before', async () => {
    const realm = uniqueRealm();
    await create(ctx.app, realm, 'order-old');
    const kept = () => ctx.store.selectFrom('idempotency_key').select('key').where('key', '=', 'order-old').executeTakeFirst();
    const created = Number(
      (await ctx.store.selectFrom('idempotency_key').select('created_at').where('key', '=', 'order-old').executeTakeFirstOrThrow())
        .created_at,
    );
    await ctx.store.transaction().execute((trx) => cleanUp(trx, 365, created + IDEMPOTENCY_KEEP_DAYS * 86_400 - 1));
    expect(await kept()).toBeDefined();
    await ctx.store.transaction().execute((trx) => cleanUp(trx, 365, created + IDEMPOTENCY_KEEP_DAYS * 86_400 + 1));
    expect(await kept()).toBeUndefined();
  });
});
