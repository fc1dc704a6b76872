import { parseLevels } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { totpCode } from '../../src/modules/factors/totp.ts';
import { createToken } from '../../src/modules/token/tokens.ts';
import { now } from '../../src/store/db.ts';
import { runAdmin } from '../admin.ts';
import { type Account, createAccount, send, TEST_PASSWORD } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

const ALL_READ = (() => {
  const parsed = parseLevels('all=read');
  if (!('map' in parsed)) throw new Error('all=read');
  return parsed.map;
})();

/**
 * A token must not outlive what recovers an account (decision 027): a password change by the user
 * or the operator, the operator's reset of the second factors, a disabled user. And it obeys the
 * realm's second-factor rule as a session does.
 */
describeStores('API tokens and account recovery on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  const USERS = ['ana', 'bea', 'cai', 'dan', 'eli', 'fer'];

  /** A token of the user, straight in the store, and the call it makes: its item's domain view. */
  async function tokenOf(username: string) {
    const { token } = await createToken(ctx.store, acc.users[username], {
      name: 'script',
      scope: ALL_READ,
      items: null,
      cidrs: [],
      expiresAt: null,
    });
    return () => send(ctx.app, 'GET', '/permission/list/', { authorization: `Bearer ${token}` });
  }
  const admin = (name: string, args: string[], values: Record<string, string | boolean> = {}) =>
    runAdmin(ctx.app.runtime, name, args, values);
  const tokensLeft = async (username: string) =>
    (await ctx.store.selectFrom('api_token').select('id').where('user_id', '=', acc.users[username]).execute()).length;

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    acc = await createAccount(ctx.store, {
      users: Object.fromEntries(USERS.map((name) => [name, 'all=write'])),
      items: [{ reference: 'recovery.es', domain: true }],
    });
  });
  afterAll(() => ctx.close());

  it('stops working once the user changes their own password, and the answer says the tokens were revoked', async () => {
    const call = await tokenOf('ana');
    expect((await call()).status).toBe(200);
    const res = await send(ctx.app, 'POST', '/user/changepass/', await acc.as('ana'), {
      actualPassword: TEST_PASSWORD,
      password: 'ana-new-pass-1',
    });
    expect(res.status).toBe(200);
    expect(res.body.system.info).toEqual(['Contraseña cambiada. Se han cerrado las demás sesiones y se han revocado tus tokens de API']);
    expect((await call()).status).toBe(401);
    expect(await tokensLeft('ana')).toBe(0);
    const audit = await ctx.store
      .selectFrom('audit_event')
      .select('detail')
      .where('user_id', '=', acc.users.ana)
      .where('action', '=', 'changepass')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.detail)).toEqual({ revokedApiAccess: 1 });
  });

  it('stops working once the operator resets the password (user-password)', async () => {
    const call = await tokenOf('bea');
    expect((await call()).status).toBe(200);
    await admin('user-password', [acc.realm, 'bea'], { password: 'bea-new-pass-1' });
    expect((await call()).status).toBe(401);
    expect(await tokensLeft('bea')).toBe(0);
  });

  it('stops working once the operator resets the second factors (user-2fa-reset), which the log records', async () => {
    const call = await tokenOf('cai');
    expect((await call()).status).toBe(200);
    await admin('user-2fa-reset', [acc.realm, 'cai']);
    expect((await call()).status).toBe(401);
    const audit = await ctx.store
      .selectFrom('audit_event')
      .select('detail')
      .where('user_id', '=', acc.users.cai)
      .where('action', '=', 'factor_reset')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.detail)).toEqual({ removed: 0, revokedApiAccess: 1 });
  });

  it('stops working once the user is disabled (user-disable), and stays revoked after --enable', async () => {
    const call = await tokenOf('dan');
    expect((await call()).status).toBe(200);
    await admin('user-disable', [acc.realm, 'dan']);
    expect((await call()).status).toBe(401);
    await admin('user-disable', [acc.realm, 'dan'], { enable: true });
    expect((await call()).status).toBe(401);
    expect(await tokensLeft('dan')).toBe(0);
  });

  it('answers 403 factors.required while the realm requires a second factor the user lacks, and works again once the user enrols one', async () => {
    const own = await createAccount(ctx.store, { users: { eva: 'all=write' }, items: [{ reference: 'rule.es', domain: true }] });
    const { token } = await createToken(ctx.store, own.users.eva, { name: 's', scope: ALL_READ, items: null, cidrs: [], expiresAt: null });
    const call = () => send(ctx.app, 'GET', '/permission/list/', { authorization: `Bearer ${token}` });
    await admin('realm-require-2fa', [own.realm, 'on']);
    const refused = await call();
    expect(refused.status).toBe(403);
    expect(refused.body.system.errors).toEqual(['Tu proveedor exige un segundo factor. Añade uno para continuar']);
    // The user enrols from a session, as the realm leads them to.
    const session = await own.as('eva');
    const start = await send(ctx.app, 'POST', '/user/factors/totp/start/', session, { password: TEST_PASSWORD });
    const { secret, token: enrolment } = start.body.data;
    expect(
      (await send(ctx.app, 'POST', '/user/factors/totp/confirm/', session, { token: enrolment, code: totpCode(secret, now()) })).status,
    ).toBe(200);
    expect((await call()).status).toBe(200);
  });

  it('keeps working while the realm requires a second factor the user has, and when the realm requires none', async () => {
    const call = await tokenOf('fer');
    const session = await acc.as('fer');
    const start = await send(ctx.app, 'POST', '/user/factors/totp/start/', session, { password: TEST_PASSWORD });
    const { secret, token: enrolment } = start.body.data;
    await send(ctx.app, 'POST', '/user/factors/totp/confirm/', session, { token: enrolment, code: totpCode(secret, now()) });
    expect((await call()).status).toBe(200);
    await admin('realm-require-2fa', [acc.realm, 'on']);
    try {
      expect((await call()).status).toBe(200);
    } finally {
      await admin('realm-require-2fa', [acc.realm, 'off']);
    }
  });
});
