import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { totpCode } from '../../src/modules/factors/totp.ts';
import { now } from '../../src/store/db.ts';
import { type Account, createAccount, send, TEST_PASSWORD } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { login, sessionToken, withSession } from './helpers.ts';

const TOO_NEW =
  'That factor was added in this session and cannot confirm it is you. Use your password or a factor you already had when you signed in';

/**
 * What a stolen session cookie may do on its own: nothing that changes how the account is
 * protected. Only the password, or a factor the user held before the session began, re-authenticates.
 */
describeStores('re-authentication against a stolen session on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  let ipCount = 0;
  const freshIp = () => `10.33.${kind === 'sqlite' ? 1 : 2}.${++ipCount}`;
  const USERS = ['ana', 'bea', 'cai', 'dan', 'eli'];
  const call = (token: string, url: string, fields: Record<string, string | number> = {}) =>
    send(ctx.app, 'POST', url, withSession(token), fields);
  /** The session an attacker copied: the user's own, signed in with the password alone. */
  const stolenSession = async (username: string) => {
    const res = await login(ctx, { domainName: acc.realm, username, password: TEST_PASSWORD }, {}, freshIp());
    expect(res.json().data.success).toBe(true);
    return sessionToken(res)!;
  };
  /** Adds an authenticator app in this session with the given proof; answers its secret and recovery codes. */
  async function enrolTotp(token: string, proof: Record<string, string> = { password: TEST_PASSWORD }) {
    const start = await call(token, '/user/factors/totp/start/', proof);
    expect(start.status).toBe(200);
    const confirm = await call(token, '/user/factors/totp/confirm/', {
      token: start.body.data.token,
      code: totpCode(start.body.data.secret, now()),
    });
    expect(confirm.status).toBe(200);
    return { secret: start.body.data.secret as string, recoveryCodes: (confirm.body.data.recoveryCodes ?? []) as string[] };
  }
  /** Half a minute later, a new sign-in with a recovery code: a session that began after the factor. */
  async function laterSession(username: string, recoveryCode: string) {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 30_000 });
    const first = await login(ctx, { domainName: acc.realm, username, password: TEST_PASSWORD }, {}, freshIp());
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/p247/user/login/second/',
      remoteAddress: freshIp(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-dd-request': '1' },
      payload: new URLSearchParams({ challenge: first.json().data.secondFactor.challenge, recoveryCode }).toString(),
    });
    expect(res.statusCode).toBe(200);
    return sessionToken(res)!;
  }
  /** The mails the outbox holds for the user, as written (headers and text). */
  const mailsTo = (username: string) => {
    const dir = path.join(ctx.config.dataDir, 'outbox');
    let files: string[] = [];
    try {
      files = readdirSync(dir);
    } catch {
      return [];
    }
    return files.map((f) => readFileSync(path.join(dir, f), 'utf8')).filter((mail) => mail.includes(`To: ${username}@takeover.test`));
  };
  const subjectsTo = (username: string) => mailsTo(username).map((mail) => /^Subject: (.*)$/m.exec(mail)?.[1]);
  const factorIds = async (token: string) => (await call(token, '/user/factors/')).body.data.factors.map((f: { id: number }) => f.id);

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    acc = await createAccount(ctx.store, {
      users: Object.fromEntries(USERS.map((name) => [name, 'all=write'])),
      items: [{ reference: 'takeover.es', domain: true }],
    });
    for (const name of USERS) {
      await ctx.store
        .updateTable('user')
        .set({ email: `${name}@takeover.test`, language: 'en', name })
        .where('id', '=', acc.users[name])
        .execute();
    }
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => ctx.close());

  it('refuses to start enrolling a first factor without the current password, under the password field, and stores nothing', async () => {
    const stolen = await stolenSession('ana');
    for (const url of ['/user/factors/totp/start/', '/user/factors/passkey/options/']) {
      const bare = await call(stolen, url);
      expect(bare.status).toBe(400);
      expect(bare.body.system.inputs).toEqual(['password']);
      expect(bare.body.system.errors).toEqual(['Enter your current password or a code of your second factor']);
    }
    const wrong = await call(stolen, '/user/factors/totp/start/', { password: 'not-the-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.system.inputs).toEqual(['password']);
    // A user without a factor has no code that could stand in for the password.
    const code = await call(stolen, '/user/factors/passkey/options/', { code: 'abcd-efgh-jkmn' });
    expect(code.status).toBe(400);
    expect(code.body.system.inputs).toEqual(['code']);
    expect(await ctx.store.selectFrom('second_factor').select('id').where('user_id', '=', acc.users.ana).execute()).toEqual([]);
    expect(mailsTo('ana')).toEqual([]);
  });

  it('ends the takeover sequence in refusals: codes of a factor enrolled in the session, and its recovery codes, count for nothing', async () => {
    const stolen = await stolenSession('bea');
    // Whatever got the factor into this session, its codes must not stand in for the password here.
    const { secret, recoveryCodes } = await enrolTotp(stolen);
    const [id] = await factorIds(stolen);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 30_000 });
    const fresh = totpCode(secret, now());
    // Five tries, one per call, each with a code of the factor or one of its recovery codes: the
    // re-authentication limit (five per user) is not what stops them.
    const attempts: [string, Record<string, string | number>][] = [
      ['/user/changepass/', { password: 'attacker-pass-1', code: fresh }],
      ['/user/tokens/create/', { name: 'backdoor', scope: 'all=write', code: recoveryCodes[0] }],
      ['/user/factors/remove/', { id, code: fresh }],
      ['/user/factors/recovery/', { code: recoveryCodes[1].toUpperCase() }],
      ['/user/factors/passkey/options/', { code: recoveryCodes[2].replaceAll('-', '') }],
    ];
    for (const [url, fields] of attempts) {
      const res = await call(stolen, url, fields);
      expect(res.status, url).toBe(400);
      expect(res.body.system.inputs).toEqual(['code']);
      expect(res.body.system.errors).toEqual([TOO_NEW]);
    }
    // Nothing changed: the same password signs in, no token, the factor stays, no recovery code spent.
    expect(await ctx.store.selectFrom('api_token').select('id').where('user_id', '=', acc.users.bea).execute()).toEqual([]);
    expect(await factorIds(stolen)).toEqual([id]);
    expect((await call(stolen, '/user/factors/')).body.data.recoveryCodesLeft).toBe(10);
    const again = await login(ctx, { domainName: acc.realm, username: 'bea', password: TEST_PASSWORD }, {}, freshIp());
    expect(again.json().data.secondFactor.totp).toBe(true);
  });

  it('refuses a recovery code issued in this session even when the factor behind it is older', async () => {
    const { recoveryCodes } = await enrolTotp(await stolenSession('cai'));
    const later = await laterSession('cai', recoveryCodes[0]);
    const renewed = await call(later, '/user/factors/recovery/', { code: recoveryCodes[1] });
    expect(renewed.status).toBe(200);
    const res = await call(later, '/user/changepass/', { code: renewed.body.data.codes[0], password: 'another-pass-1' });
    expect(res.status).toBe(400);
    expect(res.body.system.errors).toEqual([TOO_NEW]);
  });

  it('lets the user make every change with the current password, and mails a notice of each', async () => {
    const session = await stolenSession('dan');
    await enrolTotp(session);
    const token = await call(session, '/user/tokens/create/', { name: 'ci', scope: 'all=read', password: TEST_PASSWORD });
    expect(token.status).toBe(200);
    expect((await call(session, '/user/factors/recovery/', { password: TEST_PASSWORD })).status).toBe(200);
    const [id] = await factorIds(session);
    expect((await call(session, '/user/factors/remove/', { id, password: TEST_PASSWORD })).status).toBe(200);
    const changed = await call(session, '/user/changepass/', { actualPassword: TEST_PASSWORD, password: 'dan-new-pass-1' });
    expect(changed.status).toBe(200);
    const account = `dan@${acc.realm}`;
    expect(subjectsTo('dan')).toEqual(
      expect.arrayContaining([
        `A second factor was added: ${account}`,
        `An API token was created: ${account}`,
        `New recovery codes were created: ${account}`,
        `A second factor was removed: ${account}`,
        `The password was changed: ${account}`,
      ]),
    );
    expect(mailsTo('dan')).toHaveLength(5);
    expect(mailsTo('dan').join('\n')).toContain('If it was you, there is nothing to do.');
  });

  it('accepts a code of a factor enrolled before the session began, and one of its recovery codes', async () => {
    const { secret, recoveryCodes } = await enrolTotp(await stolenSession('eli'));
    const later = await laterSession('eli', recoveryCodes[0]);
    const made = await call(later, '/user/tokens/create/', { name: 'ci', scope: 'all=read', code: totpCode(secret, now()) });
    expect(made.status).toBe(200);
    const options = await call(later, '/user/factors/passkey/options/', { code: recoveryCodes[1] });
    expect(options.status).toBe(200);
    vi.setSystemTime(Date.now() + 30_000);
    const changed = await call(later, '/user/changepass/', { code: totpCode(secret, now()), password: 'eli-new-pass-1' });
    expect(changed.status).toBe(200);
    expect(subjectsTo('eli')).toEqual(expect.arrayContaining([`The password was changed: eli@${acc.realm}`]));
  });
});
