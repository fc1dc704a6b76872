import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.ts';
import { stepAt, totpCode } from '../../src/modules/factors/totp.ts';
import { createRealm, createUser, setDisabled } from '../../src/modules/provisioning/accounts.ts';
import { createSession } from '../../src/modules/session/sessions.ts';
import { now } from '../../src/store/db.ts';
import { type Account, createAccount, send, TEST_PASSWORD } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { login, sessionToken, withSession } from './helpers.ts';

describeStores('second factors on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  let ipCount = 0;
  const freshIp = () => `10.9.${kind === 'sqlite' ? 1 : 2}.${++ipCount}`;
  const signIn = (username: string, password = TEST_PASSWORD) => login(ctx, { domainName: acc.realm, username, password }, {}, freshIp());
  const second = (challenge: string, fields: Record<string, string>, ip = freshIp()) =>
    ctx.app.inject({
      method: 'POST',
      url: '/p247/user/login/second/',
      remoteAddress: ip,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-dd-request': '1' },
      payload: new URLSearchParams({ challenge, ...fields }).toString(),
    });
  const call = (token: string, url: string, fields?: Record<string, string | number>) =>
    send(ctx.app, 'POST', url, withSession(token), fields ?? {});

  /** Signs in with the password alone (a user without factors) and answers the session token. */
  async function passwordSession(username: string) {
    const res = await signIn(username);
    expect(res.json().data.success).toBe(true);
    return sessionToken(res)!;
  }

  /** Enrols an authenticator app through the API (the password first); answers its secret and the recovery codes shown. */
  async function enrolTotp(token: string) {
    const start = await call(token, '/user/factors/totp/start/', { password: TEST_PASSWORD });
    expect(start.status).toBe(200);
    const { secret, token: enrolment } = start.body.data;
    const confirm = await call(token, '/user/factors/totp/confirm/', { token: enrolment, code: totpCode(secret, now()) });
    expect(confirm.status).toBe(200);
    return { secret: secret as string, recoveryCodes: confirm.body.data.recoveryCodes as string[] };
  }

  /** A user with an authenticator app whose current step is spent already; the next code is the next step's. */
  async function userWithTotp(username: string) {
    return enrolTotp(await passwordSession(username));
  }

  /**
   * Half a minute after an enrolment, a new sign-in with one of its recovery codes: a session that
   * began after the factor, whose codes therefore prove it is the user. The app's next step is unspent.
   */
  async function laterSession(realm: string, username: string, recoveryCode: string) {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 30_000 });
    const first = await login(ctx, { domainName: realm, username, password: TEST_PASSWORD }, {}, freshIp());
    const res = await second(first.json().data.secondFactor.challenge, { recoveryCode });
    expect(res.statusCode).toBe(200);
    return sessionToken(res)!;
  }

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    acc = await createAccount(ctx.store, {
      // A writer of its own for each test, so no test meets the factors another one enrolled.
      users: Object.fromEntries(['ana', 'bea', 'cai', 'dan', 'eli', 'fer', 'gus', 'hal', 'ivo'].map((name) => [name, 'all=write'])),
      items: [{ reference: 'f-shop.es', domain: true }],
    });
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => ctx.close());

  it('enrols an authenticator app with a first code and shows ten recovery codes once', async () => {
    const token = await passwordSession('ana');
    const start = await call(token, '/user/factors/totp/start/', { password: TEST_PASSWORD });
    expect(start.body.data.uri).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]{32}&/);
    expect(start.body.data.qr).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(await ctx.store.selectFrom('second_factor').selectAll().where('user_id', '=', acc.users.ana).execute()).toEqual([]);
    const wrong = await call(token, '/user/factors/totp/confirm/', {
      token: start.body.data.token,
      code: '000000' === totpCode(start.body.data.secret, now()) ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.system.inputs).toEqual(['code']);
    const ok = await call(token, '/user/factors/totp/confirm/', {
      token: start.body.data.token,
      code: totpCode(start.body.data.secret, now()),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.recoveryCodes).toHaveLength(10);
    expect(new Set(ok.body.data.recoveryCodes).size).toBe(10);
    const row = await ctx.store.selectFrom('second_factor').selectAll().where('user_id', '=', acc.users.ana).executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(start.body.data.secret);
    expect(ctx.app.runtime.secrets.decrypt(row.secret!)).toBe(start.body.data.secret);
    const list = await call(token, '/user/factors/');
    expect(list.body.data).toMatchObject({ recoveryCodesLeft: 10, required: false, factors: [{ kind: 'totp' }] });
  });

  it('refuses an enrolment token of another user', async () => {
    const ana = await passwordSession('hal');
    const start = await call(ana, '/user/factors/totp/start/', { password: TEST_PASSWORD });
    const other = await acc.as('gus');
    const res = await call(other.cookie.split('=')[1], '/user/factors/totp/confirm/', {
      token: start.body.data.token,
      code: totpCode(start.body.data.secret, now()),
    });
    expect(res.status).toBe(400);
    expect(res.body.system.errors[0]).toMatch(/caducado|expired|caducat/);
  });

  it('asks for the second factor after the password, without a session, and signs in with a code', async () => {
    const { secret } = await userWithTotp('bea');
    const first = await signIn('bea');
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ success: false, secondFactor: { totp: true, passkey: null, expiresIn: 300 } });
    expect(sessionToken(first)).toBeUndefined();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 30_000 });
    const res = await second(first.json().data.secondFactor.challenge, { code: totpCode(secret, now()) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ success: true, domainID: acc.items['f-shop.es'] });
    const info = await call(sessionToken(res)!, '/user/info/');
    expect(info.body.data.user).toBe('bea');
  });

  it('refuses a code used once already, a wrong code, and a challenge used once already', async () => {
    const { secret } = await userWithTotp('cai');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 30_000 });
    const code = totpCode(secret, now());
    const a = (await signIn('cai')).json().data.secondFactor.challenge;
    expect((await second(a, { code })).statusCode).toBe(200);
    const b = (await signIn('cai')).json().data.secondFactor.challenge;
    const reused = await second(b, { code });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().system.inputs).toEqual(['code']);
    expect(reused.json().system.errors).toEqual(['El código no es correcto o ya se ha usado']);
    const wrong = await second(b, { code: String((Number(code) + 1) % 1_000_000).padStart(6, '0') });
    expect(wrong.statusCode).toBe(400);
    vi.setSystemTime(Date.now() + 30_000);
    expect((await second(a, { code: totpCode(secret, now()) })).statusCode).toBe(401);
  });

  it('lets a challenge expire after five minutes', async () => {
    const { secret } = await userWithTotp('dan');
    const challenge = (await signIn('dan')).json().data.secondFactor.challenge;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 301_000 });
    const res = await second(challenge, { code: totpCode(secret, now()) });
    expect(res.statusCode).toBe(401);
    expect(res.json().system.errors[0]).toMatch(/caducado/);
    expect(sessionToken(res)).toBeUndefined();
  });

  describe('the second step, for a user of an account of its own', () => {
    /** A fresh user with an authenticator app, and the first step's challenge of each sign-in. */
    async function enrolled() {
      const own = await createAccount(ctx.store, { users: { una: 'all=write' }, items: [] });
      const first = () => login(ctx, { domainName: own.realm, username: 'una', password: TEST_PASSWORD }, {}, freshIp());
      const { secret } = await enrolTotp(sessionToken(await first())!);
      const challenge = async () => (await first()).json().data.secondFactor.challenge as string;
      return { own, secret, challenge };
    }

    it('refuses a user disabled since the first step, even with the right code, as an expired challenge', async () => {
      const { own, secret, challenge } = await enrolled();
      const pending = await challenge();
      await setDisabled(ctx.store, { realm: own.realm, username: 'una' }, true);
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 30_000 });
      const res = await second(pending, { code: totpCode(secret, now()) });
      expect(res.statusCode).toBe(401);
      expect(res.json().system.errors[0]).toMatch(/caducado/);
      expect(sessionToken(res)).toBeUndefined();
    });

    it('asks for a factor under the code field when the second step brings none, without counting an attempt', async () => {
      const { own, challenge } = await enrolled();
      const pending = await challenge();
      const res = await second(pending, {});
      expect(res.statusCode).toBe(400);
      expect(res.json().system.inputs).toEqual(['code']);
      expect(res.json().system.errors).toEqual(['Escribe un código, un código de recuperación o usa una llave de acceso']);
      const counted = await ctx.store.selectFrom('counter').select('hits').where('key', '=', `login2:user:${own.users.una}`).execute();
      expect(counted).toEqual([]);
    });

    it('forgets the wrong codes once the right one signs in: the next wrong code is refused, not locked out', async () => {
      const { secret, challenge } = await enrolled();
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 30_000 });
      const right = totpCode(secret, now());
      const wrong = String((Number(right) + 7) % 1_000_000).padStart(6, '0');
      const pending = await challenge();
      for (let i = 0; i < 4; i++) expect((await second(pending, { code: wrong })).statusCode).toBe(400);
      expect((await second(pending, { code: right })).statusCode).toBe(200);
      expect((await second(await challenge(), { code: wrong })).statusCode).toBe(400);
    });

    it('records both steps in the activity log: the first held for a factor, an expired challenge, a wrong code, and the factor that signed in', async () => {
      const { own, secret, challenge } = await enrolled();
      const ip = freshIp();
      const stale = await challenge();
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 301_000 });
      const right = totpCode(secret, now());
      const wrong = String((Number(right) + 7) % 1_000_000).padStart(6, '0');
      expect((await second(stale, { code: right }, ip)).statusCode).toBe(401);
      const pending = await challenge();
      expect((await second(pending, { code: wrong }, ip)).statusCode).toBe(400);
      expect((await second(pending, { code: right }, ip)).statusCode).toBe(200);
      const realm = await ctx.store.selectFrom('realm').select('id').where('name', '=', own.realm).executeTakeFirstOrThrow();
      const rows = await ctx.store
        .selectFrom('audit_event')
        .select(['action', 'outcome', 'realm_id', 'detail'])
        .where((eb) => eb.or([eb('user_id', '=', own.users.una), eb('ip', '=', ip)]))
        .orderBy('id')
        .execute();
      expect(rows.map((r) => [r.action, r.outcome, r.realm_id])).toEqual([
        ['login', 'success', realm.id], // the password alone, before the app was enrolled
        ['factor_add', 'success', realm.id],
        ['login', 'second_factor', realm.id],
        ['login_second', 'expired', null],
        ['login', 'second_factor', realm.id],
        ['login_second', 'failure', realm.id],
        ['login_second', 'success', realm.id],
      ]);
      expect(JSON.parse(rows.at(-1)!.detail)).toEqual({ factor: 'totp' });
    });

    it('refuses a passkey answer to a challenge that holds no passkey, under its field', async () => {
      const { challenge } = await enrolled();
      const res = await second(await challenge(), { credential: JSON.stringify({ id: 'forged', response: {} }) });
      expect(res.statusCode).toBe(400);
      expect(res.json().system.inputs).toEqual(['credential']);
      expect(res.json().system.errors).toEqual(['No se ha podido comprobar la llave de acceso']);
      expect(sessionToken(res)).toBeUndefined();
    });
  });

  it('takes five wrong codes per user, then refuses even the right one for a while', async () => {
    const { secret } = await userWithTotp('eli');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 30_000 });
    const right = totpCode(secret, now());
    const wrong = String((Number(right) + 7) % 1_000_000).padStart(6, '0');
    const challenge = (await signIn('eli')).json().data.secondFactor.challenge;
    for (let i = 0; i < 5; i++) expect((await second(challenge, { code: wrong })).statusCode).toBe(400);
    const locked = await second(challenge, { code: right });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().system.errors[0]).toMatch(/15 minutos/);
    const outcomes = await ctx.store
      .selectFrom('audit_event')
      .select('outcome')
      .where('action', '=', 'login_second')
      .where('user_id', '=', acc.users.eli)
      .orderBy('id')
      .execute();
    expect(outcomes.map((r) => r.outcome)).toEqual([...Array(5).fill('failure'), 'locked']);
  });

  it('signs in with a recovery code once, typed in any case with or without dashes; a second use fails', async () => {
    const { recoveryCodes } = await userWithTotp('fer');
    const code = recoveryCodes[0];
    expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    const first = await second((await signIn('fer')).json().data.secondFactor.challenge, { recoveryCode: code.toUpperCase() });
    expect(first.statusCode).toBe(200);
    const again = await second((await signIn('fer')).json().data.secondFactor.challenge, { recoveryCode: code.replaceAll('-', '') });
    expect(again.statusCode).toBe(400);
    expect(again.json().system.inputs).toEqual(['recoveryCode']);
    expect(again.json().system.errors).toEqual(['El código de recuperación no es válido o ya se ha usado']);
    const success = await ctx.store
      .selectFrom('audit_event')
      .select('detail')
      .where('action', '=', 'login_second')
      .where('outcome', '=', 'success')
      .where('user_id', '=', acc.users.fer)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(success.detail)).toEqual({ factor: 'recovery' });
    const left = await call(sessionToken(first)!, '/user/factors/');
    expect(left.body.data.recoveryCodesLeft).toBe(9);
  });

  it('regenerates the recovery codes only after re-authentication, and the old ones stop working', async () => {
    const token = await passwordSession('gus');
    const { recoveryCodes } = await enrolTotp(token);
    expect((await call(token, '/user/factors/recovery/', {})).body.system.inputs).toEqual(['password']);
    expect((await call(token, '/user/factors/recovery/', { password: 'not-the-password' })).status).toBe(400);
    const fresh = await call(token, '/user/factors/recovery/', { password: TEST_PASSWORD });
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.codes).toHaveLength(10);
    const old = await second((await signIn('gus')).json().data.secondFactor.challenge, { recoveryCode: recoveryCodes[1] });
    expect(old.statusCode).toBe(400);
    const now_ = await second((await signIn('gus')).json().data.secondFactor.challenge, { recoveryCode: fresh.body.data.codes[1] });
    expect(now_.statusCode).toBe(200);
  });

  it('creates an API token after a code of a second factor enrolled before the session instead of the password, and refuses a wrong code under its field', async () => {
    const { secret, recoveryCodes } = await userWithTotp('ivo');
    const token = await laterSession(acc.realm, 'ivo', recoveryCodes[0]);
    const create = (fields: Record<string, string>) => call(token, '/user/tokens/create/', { name: 'ci', scope: 'all=read', ...fields });
    expect((await create({})).body.system.inputs).toEqual(['password']);
    const wrong = '000000' === totpCode(secret, now()) ? '111111' : '000000';
    expect((await create({ code: wrong })).body.system.inputs).toEqual(['code']);
    const made = await create({ code: totpCode(secret, now()) });
    expect(made.status).toBe(200);
    expect(made.body.data.token).toMatch(/^atl_/);
  });

  describe('removing a factor', () => {
    it('needs the password or a code, and ends every other session of the user', async () => {
      const acc2 = await createAccount(ctx.store, { users: { ivo: 'all=write' }, items: [] });
      const enrolling = sessionToken(
        await login(ctx, { domainName: acc2.realm, username: 'ivo', password: TEST_PASSWORD }, {}, freshIp()),
      )!;
      const { secret, recoveryCodes } = await enrolTotp(enrolling);
      const here = await laterSession(acc2.realm, 'ivo', recoveryCodes[0]);
      const other = (await acc2.as('ivo')).cookie.split('=')[1];
      const id = (await call(here, '/user/factors/')).body.data.factors[0].id;
      const bare = await call(here, '/user/factors/remove/', { id });
      expect(bare.status).toBe(400);
      expect(bare.body.system.inputs).toEqual(['password']);
      const badCode = await call(here, '/user/factors/remove/', {
        id,
        code: '123456' === totpCode(secret, now()) ? '654321' : '123456',
      });
      expect(badCode.body.system.inputs).toEqual(['code']);
      expect((await call(other, '/user/info/')).status).toBe(200);
      const ok = await call(here, '/user/factors/remove/', { id, code: totpCode(secret, now()) });
      expect(ok.status).toBe(200);
      expect((await call(other, '/user/info/')).status).toBe(401);
      expect((await call(enrolling, '/user/info/')).status).toBe(401);
      expect((await call(here, '/user/info/')).status).toBe(200);
      const list = (await call(here, '/user/factors/')).body.data;
      expect(list).toMatchObject({ factors: [], recoveryCodesLeft: 0 });
      // Without a factor the password alone signs in again.
      const res = await login(ctx, { domainName: acc2.realm, username: 'ivo', password: TEST_PASSWORD }, {}, freshIp());
      expect(res.json().data.success).toBe(true);
    });

    it('answers 404 for a factor of another user', async () => {
      const acc2 = await createAccount(ctx.store, { users: { jon: 'all=write', kim: 'all=write' }, items: [] });
      const jon = (await acc2.as('jon')).cookie.split('=')[1];
      await enrolTotp(jon);
      const id = (await call(jon, '/user/factors/')).body.data.factors[0].id;
      const kim = (await acc2.as('kim')).cookie.split('=')[1];
      expect((await call(kim, '/user/factors/remove/', { id, password: TEST_PASSWORD })).status).toBe(404);
      expect((await call(jon, '/user/factors/')).body.data.factors).toHaveLength(1);
    });
  });

  it('renames a factor of the user’s own, refuses an empty name under its field, and answers 404 for another user’s', async () => {
    const acc2 = await createAccount(ctx.store, { users: { pia: 'all=write', quim: 'all=write' }, items: [] });
    const pia = (await acc2.as('pia')).cookie.split('=')[1];
    await enrolTotp(pia);
    const id = (await call(pia, '/user/factors/')).body.data.factors[0].id;
    expect((await call(pia, '/user/factors/rename/', { id, name: '  Móvil del trabajo ' })).status).toBe(200);
    expect((await call(pia, '/user/factors/')).body.data.factors[0].name).toBe('Móvil del trabajo');
    const empty = await call(pia, '/user/factors/rename/', { id, name: ' ' });
    expect(empty.status).toBe(400);
    expect(empty.body.system.inputs).toEqual(['name']);
    const quim = (await acc2.as('quim')).cookie.split('=')[1];
    expect((await call(quim, '/user/factors/rename/', { id, name: 'Mío' })).status).toBe(404);
    expect((await call(pia, '/user/factors/')).body.data.factors[0].name).toBe('Móvil del trabajo');
  });

  it('changes the password with a code of a second factor enrolled before the session instead of the current password', async () => {
    const acc2 = await createAccount(ctx.store, { users: { lia: 'all=write' }, items: [] });
    const { secret, recoveryCodes } = await enrolTotp((await acc2.as('lia')).cookie.split('=')[1]);
    const token = await laterSession(acc2.realm, 'lia', recoveryCodes[0]);
    const res = await call(token, '/user/changepass/', { code: totpCode(secret, now()), password: 'a-brand-new-pass' });
    expect(res.status).toBe(200);
    const again = await login(ctx, { domainName: acc2.realm, username: 'lia', password: 'a-brand-new-pass' }, {}, freshIp());
    expect(again.json().data.secondFactor.totp).toBe(true);
  });

  describe('a realm that requires a second factor', () => {
    it('leads a user without one to enrolment and refuses other calls until then', async () => {
      const acc2 = await createAccount(ctx.store, { users: { max: 'all=write' }, items: [{ reference: 'g-shop.es', domain: true }] });
      const log = vi.spyOn(console, 'log').mockImplementation(() => {});
      await COMMANDS['realm-require-2fa'].run(ctx.app.runtime, [acc2.realm, 'on'], {});
      const res = await login(ctx, { domainName: acc2.realm, username: 'max', password: TEST_PASSWORD }, {}, freshIp());
      expect(res.json().data).toEqual({ success: true, domainID: null, mustEnrol: true });
      const token = sessionToken(res)!;
      const refused = await send(ctx.app, 'GET', '/permission/list/', withSession(token));
      expect(refused.status).toBe(403);
      expect(refused.body.system.errors[0]).toMatch(/segundo factor/);
      expect((await call(token, '/user/info/')).body.data.mustEnrol).toBe(true);
      expect((await call(token, '/user/factors/')).body.data.required).toBe(true);
      await enrolTotp(token);
      expect((await send(ctx.app, 'GET', '/permission/list/', withSession(token))).status).toBe(200);
      expect((await call(token, '/user/info/')).body.data.mustEnrol).toBe(false);
      await COMMANDS['realm-require-2fa'].run(ctx.app.runtime, [acc2.realm, 'off'], {});
      log.mockRestore();
    });

    it('follows the configuration’s list of realms too, in any spelling', async () => {
      const other = await openTestApp(kind, { 'secondFactor.requiredRealms': ['CFG-Required.test'] });
      try {
        await createRealm(other.store, 'cfg-required.test');
        const { id } = await createUser(other.store, 'cfg-required.test', 'olga', TEST_PASSWORD);
        const token = await createSession(other.store, id);
        const res = await send(other.app, 'GET', '/permission/list/', withSession(token));
        expect(res.status).toBe(403);
      } finally {
        await other.close();
      }
    });
  });

  it('lets the operator remove a user’s factors from the CLI, audited, ending the user’s sessions', async () => {
    const acc2 = await createAccount(ctx.store, { users: { ona: 'all=write' }, items: [] });
    const token = (await acc2.as('ona')).cookie.split('=')[1];
    await enrolTotp(token);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    await COMMANDS['user-2fa-reset'].run(ctx.app.runtime, [acc2.realm, 'ona'], {});
    log.mockRestore();
    expect(await ctx.store.selectFrom('second_factor').selectAll().where('user_id', '=', acc2.users.ona).execute()).toEqual([]);
    expect(await ctx.store.selectFrom('recovery_code').selectAll().where('user_id', '=', acc2.users.ona).execute()).toEqual([]);
    expect((await call(token, '/user/info/')).status).toBe(401);
    const audit = await ctx.store
      .selectFrom('audit_event')
      .select(['action', 'outcome', 'detail'])
      .where('user_id', '=', acc2.users.ona)
      .where('action', '=', 'factor_reset')
      .execute();
    expect(audit).toEqual([{ action: 'factor_reset', outcome: 'success', detail: JSON.stringify({ removed: 1, revokedApiAccess: 0 }) }]);
    expect(
      (await login(ctx, { domainName: acc2.realm, username: 'ona', password: TEST_PASSWORD }, {}, freshIp())).json().data.success,
    ).toBe(true);
  });

  it('keeps the step of the code just accepted', async () => {
    const { secret } = await userWithTotp('hal');
    const row = await ctx.store
      .selectFrom('second_factor')
      .select('last_step')
      .where('user_id', '=', acc.users.hal)
      .executeTakeFirstOrThrow();
    expect(Number(row.last_step)).toBeGreaterThanOrEqual(stepAt(now()) - 1);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  });
});
