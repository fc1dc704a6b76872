import { afterAll, beforeAll, expect, it } from 'vitest';
import { setDisabled } from '../../src/modules/provisioning/accounts.ts';
import { now } from '../../src/store/db.ts';
import { type Account, createAccount, TEST_PASSWORD } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { FORM, login, sessionToken, solvedCaptcha, withSession } from './helpers.ts';

describeStores('signing in on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  let ipCount = 0;
  /** A fresh client address per test, so the per-IP limit of one test does not leak into another. */
  const freshIp = () => `10.0.${kind === 'sqlite' ? 1 : 2}.${++ipCount}`;
  const as = (username: string, password = TEST_PASSWORD) => ({ domainName: acc.realm, username, password });
  const info = (token: string) => ctx.app.inject({ method: 'POST', url: '/p247/user/info/', headers: withSession(token) });

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    acc = await createAccount(ctx.store, {
      users: {
        ana: 'all=write',
        luis: 'all=read',
        svc: 'service=write,domain=read',
        mailer: 'servicemail=write',
        dns: 'service_dnszone=write',
        eva: 'all=write',
        off: 'all=write',
      },
      items: [
        { reference: 'b-shop.es', domain: true, service: 'normal', mail: true },
        { reference: 'a-mail.es', mail: true },
      ],
    });
  });
  afterAll(() => ctx.close());

  it('signs in with a solved captcha and sets an HttpOnly, SameSite=Strict session cookie', async () => {
    const res = await login(ctx, as('ana'), {}, freshIp());
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ success: true, domainID: acc.items['b-shop.es'] });
    const cookie = res.cookies.find((c) => c.name === 'atalaya_sid')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie.secure).toBeFalsy();
    expect(cookie.value).toMatch(/^[\w-]{43}$/);
    expect((await info(cookie.value)).json().data.user).toBe('ana');
  });

  it.each<[string, string | null, string]>([
    ['ana', 'b-shop.es', 'write on domain comes first'],
    ['svc', 'b-shop.es', 'then write on service'],
    ['mailer', 'a-mail.es', 'then write on mail, first item by reference'],
    ['dns', 'b-shop.es', 'then write on the DNS zone'],
    ['luis', null, 'read only: the dashboard'],
  ])('answers domainID per the redirect rule: %s lands on %s (%s)', async (username, reference) => {
    const res = await login(ctx, as(username), {}, freshIp());
    expect(res.json().data.domainID).toBe(reference ? acc.items[reference] : null);
  });

  it('refuses an unknown realm, an unknown user and a wrong password with the same answer', async () => {
    const answers = [];
    for (const fields of [{ ...as('ana'), domainName: 'nowhere.test' }, as('nobody'), as('ana', 'wrong-password-1')]) {
      const res = await login(ctx, fields, {}, freshIp());
      answers.push({ status: res.statusCode, system: res.json().system, cookie: sessionToken(res) });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[1]).toEqual(answers[2]);
    expect(answers[0].status).toBe(401);
    expect(answers[0].system).toMatchObject({ valid: false, statusCode: 401, errors: ['Dominio, usuario o contraseña incorrectos'] });
    expect(answers[0].cookie).toBeUndefined();
  });

  it('refuses a disabled user with the same generic answer', async () => {
    await setDisabled(ctx.store, { realm: acc.realm, username: 'off' }, true);
    const res = await login(ctx, as('off'), { 'accept-language': 'en' }, freshIp());
    expect(res.statusCode).toBe(401);
    expect(res.json().system.errors).toEqual(['Wrong domain name, username or password']);
  });

  it('refuses every user of a disabled realm with the same generic answer, and lets them in once enabled', async () => {
    const other = await createAccount(ctx.store, { users: { ana: 'all=write' }, items: [{ reference: 'off.es', domain: true }] });
    const fields = { domainName: other.realm, username: 'ana', password: TEST_PASSWORD };
    await setDisabled(ctx.store, { realm: other.realm }, true);
    const res = await login(ctx, fields, { 'accept-language': 'en' }, freshIp());
    expect(res.statusCode).toBe(401);
    expect(res.json().system.errors).toEqual(['Wrong domain name, username or password']);
    expect(sessionToken(res)).toBeUndefined();
    await setDisabled(ctx.store, { realm: other.realm }, false);
    expect((await login(ctx, fields, {}, freshIp())).statusCode).toBe(200);
  });

  it('names each missing field', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/p247/user/login/', headers: FORM, payload: 'language=en' });
    expect(res.statusCode).toBe(400);
    const { inputs, errors } = res.json().system;
    expect(inputs).toEqual(['domainName', 'username', 'password', 'recaptcha_response']);
    expect(errors).toEqual(['Required field', 'Required field', 'Required field', 'Complete the anti-robot check']);
  });

  it('refuses a replayed captcha payload, and a forged one', async () => {
    const payload = await solvedCaptcha(ctx);
    const ip = freshIp();
    expect((await login(ctx, { ...as('ana'), recaptcha_response: payload }, {}, ip)).statusCode).toBe(200);
    const replay = await login(ctx, { ...as('ana'), recaptcha_response: payload }, {}, ip);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().system.inputs).toEqual(['recaptcha_response']);
    expect(replay.json().system.errors).toEqual(['La verificación anti-robots no es válida o ha caducado. Vuelve a hacerla']);
    const decoded = JSON.parse(Buffer.from(await solvedCaptcha(ctx), 'base64').toString());
    decoded.solution.derivedKey = '00'.repeat(32);
    const forged = await login(ctx, { ...as('ana'), recaptcha_response: Buffer.from(JSON.stringify(decoded)).toString('base64') }, {}, ip);
    expect(forged.statusCode).toBe(400);
    expect((await login(ctx, { ...as('ana'), recaptcha_response: 'bm90IGpzb24=' }, {}, ip)).statusCode).toBe(400);
  });

  it('refuses an expired challenge even when solved', async () => {
    const decoded = JSON.parse(Buffer.from(await solvedCaptcha(ctx), 'base64').toString());
    decoded.challenge.parameters.expiresAt = now() - 1; // the signature covers it: tampering fails too
    const res = await login(
      ctx,
      { ...as('ana'), recaptcha_response: Buffer.from(JSON.stringify(decoded)).toString('base64') },
      {},
      freshIp(),
    );
    expect(res.statusCode).toBe(400);
  });

  it('records every attempt in the audit log, never with the password', async () => {
    const ip = freshIp();
    await login(ctx, as('eva', 'secret-guess-42'), {}, ip);
    await login(ctx, as('eva'), {}, ip);
    const rows = await ctx.store.selectFrom('audit_event').selectAll().where('ip', '=', ip).orderBy('id').execute();
    expect(rows.map((r) => [r.action, r.outcome, r.user_id, r.area])).toEqual([
      ['login', 'failure', acc.users.eva, 'account'],
      ['login', 'success', acc.users.eva, 'account'],
    ]);
    expect(JSON.parse(rows[0].detail)).toEqual({ domainName: acc.realm, username: 'eva' });
    const all = JSON.stringify(await ctx.store.selectFrom('audit_event').selectAll().execute());
    expect(all).not.toContain('secret-guess-42');
    expect(all).not.toContain(TEST_PASSWORD);
  });

  it('locks one user after 5 failures with a message saying when to retry, and the lock expires', async () => {
    for (let i = 0; i < 5; i++) expect((await login(ctx, as('eva', 'bad-password-xx'), {}, freshIp())).statusCode).toBe(401);
    const locked = await login(ctx, as('eva'), { 'accept-language': 'en' }, freshIp());
    expect(locked.statusCode).toBe(429);
    expect(locked.json().system.errors).toEqual(['Too many failed attempts. Try again in 15 minutes']);
    const audit = await ctx.store.selectFrom('audit_event').select(['action', 'user_id']).where('outcome', '=', 'locked').execute();
    expect(audit.length).toBeGreaterThan(0);
    expect(audit.every((row) => row.action === 'login')).toBe(true);
    await ctx.store
      .updateTable('counter')
      .set({ reset_at: now() - 1 })
      .where('key', 'like', 'login:user:%eva')
      .execute();
    expect((await login(ctx, as('eva'), {}, freshIp())).statusCode).toBe(200);
  });

  /** Spellings of one realm that differ only by invisible or compatibility characters: one spelling of an account (decision 015). */
  const realmSpellings = (realm: string) => [
    `${realm}.`,
    `${realm[0]}\u00AD${realm.slice(1)}`, // soft hyphen
    `${String.fromCodePoint(realm.codePointAt(0)! + 0xfee0)}${realm.slice(1)}`, // full-width first letter
    realm.replace('.', '\u3002'), // ideographic full stop
    `${realm[0]}\u200B${realm.slice(1)}`, // zero-width space
    ` ${realm.toUpperCase()} `,
    `${realm.replace('.', '\uFF0E')}\uFEFF`, // full-width full stop, BOM
  ];

  it('counts every spelling of a realm and user as one account: a locked account stays locked under all of them', async () => {
    const spellings = realmSpellings(acc.realm);
    // The spellings are one account: each signs in with the right password while it is not locked.
    for (const domainName of spellings) {
      const res = await login(ctx, { domainName, username: 'eva', password: TEST_PASSWORD }, {}, freshIp());
      expect(res.statusCode, JSON.stringify(domainName)).toBe(200);
    }
    for (const username of ['EVA', '\uFF45va', 'e\u200Bva', 'ev\u00ADa']) {
      expect((await login(ctx, { domainName: acc.realm, username, password: TEST_PASSWORD }, {}, freshIp())).statusCode).toBe(200);
    }
    // Five failures under five different spellings lock the account…
    for (const domainName of spellings.slice(0, 5)) {
      const res = await login(ctx, { domainName, username: 'e\u200Bva', password: 'bad-password-xx' }, {}, freshIp());
      expect(res.statusCode).toBe(401);
    }
    // …under every spelling, the right password included: no password check at all.
    for (const domainName of [acc.realm, ...spellings]) {
      for (const username of ['eva', 'ＥＶＡ']) {
        const res = await login(ctx, { domainName, username, password: TEST_PASSWORD }, {}, freshIp());
        expect(res.statusCode, `${JSON.stringify(domainName)} ${username}`).toBe(429);
      }
    }
    const keys = await ctx.store.selectFrom('counter').select('key').where('key', 'like', 'login:user:%').execute();
    expect(keys.map((k) => k.key).filter((k) => k.endsWith('/eva'))).toEqual([`login:user:${acc.realm}/eva`]);
    await ctx.store.deleteFrom('counter').where('key', '=', `login:user:${acc.realm}/eva`).execute();
  });

  it('locks one IP after 20 failures whatever the user, and the lock expires', async () => {
    const ip = freshIp();
    // Each of the 20 is still answered as a wrong sign-in: a lower limit would lock earlier.
    for (let i = 0; i < 20; i++) expect((await login(ctx, as(`guess${i}`), {}, ip)).statusCode).toBe(401);
    const locked = await login(ctx, as('ana'), {}, ip);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().system.errors[0]).toMatch(/Vuelve a intentarlo en 15 minutos/);
    expect((await login(ctx, as('ana'), {}, freshIp())).statusCode).toBe(200);
    await ctx.store
      .updateTable('counter')
      .set({ reset_at: now() - 1 })
      .where('key', '=', `login:ip:${ip}`)
      .execute();
    expect((await login(ctx, as('ana'), {}, ip)).statusCode).toBe(200);
  });

  it('counts failures per account whatever the case typed, and forgets them at a successful sign-in', async () => {
    const other = await createAccount(ctx.store, { users: { leo: 'all=write' }, items: [{ reference: 'leo.es', domain: true }] });
    const typed = (domainName: string, username: string, password = TEST_PASSWORD) => ({ domainName, username, password });
    for (let i = 0; i < 4; i++) {
      const res = await login(ctx, typed(other.realm.toUpperCase(), 'LEO', 'bad-password-xx'), {}, freshIp());
      expect(res.statusCode).toBe(401);
    }
    expect((await login(ctx, typed(other.realm, 'leo'), {}, freshIp())).statusCode).toBe(200);
    // The four failures were forgotten: four more still leave the right password in.
    for (let i = 0; i < 4; i++)
      expect((await login(ctx, typed(other.realm, 'Leo', 'bad-password-xx'), {}, freshIp())).statusCode).toBe(401);
    expect((await login(ctx, typed(other.realm, 'leo'), {}, freshIp())).statusCode).toBe(200);
    // Five in a row lock the account, however it is typed.
    for (let i = 0; i < 5; i++) await login(ctx, typed(other.realm, 'LEO', 'bad-password-xx'), {}, freshIp());
    expect((await login(ctx, typed(other.realm, 'leo'), {}, freshIp())).statusCode).toBe(429);
  });

  it('audits a refused captcha and keeps the address of each session', async () => {
    const ip = freshIp();
    const refused = await login(ctx, { ...as('luis'), recaptcha_response: 'bm90IGpzb24=' }, {}, ip);
    expect(refused.statusCode).toBe(400);
    const token = sessionToken(await login(ctx, as('luis'), {}, ip))!;
    const audit = await ctx.store.selectFrom('audit_event').select(['action', 'outcome']).where('ip', '=', ip).orderBy('id').execute();
    expect(audit).toEqual([
      { action: 'login', outcome: 'captcha' },
      { action: 'login', outcome: 'success' },
    ]);
    const sessions = await ctx.store.selectFrom('session').select('ip').where('user_id', '=', acc.users.luis).execute();
    expect(sessions.map((s) => s.ip)).toContain(ip);
    expect((await info(token)).statusCode).toBe(200);
  });

  it('counts no refused captcha toward the locks: after five, the right password still signs in', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      expect((await login(ctx, { ...as('svc'), recaptcha_response: 'bm90IGpzb24=' }, {}, ip)).statusCode).toBe(400);
    }
    expect((await login(ctx, as('svc'), {}, ip)).statusCode).toBe(200);
  });

  it('rotates the session at sign-in: the previous id stops working', async () => {
    const first = sessionToken(await login(ctx, as('ana'), {}, freshIp()))!;
    const second = sessionToken(await login(ctx, as('ana'), withSession(first), freshIp()))!;
    expect(second).not.toBe(first);
    expect((await info(first)).json().system.statusCode).toBe(101);
    expect((await info(second)).statusCode).toBe(200);
  });

  it('shows the previous sign-in as last login, with its IP', async () => {
    const ipA = freshIp();
    const ipB = freshIp();
    await login(ctx, as('luis'), {}, ipA);
    const before = now();
    const token = sessionToken(await login(ctx, as('luis'), {}, ipB))!;
    const data = (await info(token)).json().data;
    expect(data.ip).toBe(ipA);
    expect(data.tsLastLogin).toBeLessThanOrEqual(before);
    const row = await ctx.store
      .selectFrom('user')
      .select(['last_ip', 'last_login_at'])
      .where('id', '=', acc.users.luis)
      .executeTakeFirstOrThrow();
    expect(row.last_ip).toBe(ipB);
    expect(row.last_login_at).toBeGreaterThanOrEqual(before);
  });
});
