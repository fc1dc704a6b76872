import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { openStore } from '../../src/store/db.ts';
import { type Account, createAccount, TEST_PASSWORD } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { encode, FORM, solvedCaptcha } from './helpers.ts';

/**
 * Decision 015: the limits count before they check, atomically, in the store. Parallel
 * attempts are sent through two apps, each with its own connection to the same store, as two
 * server processes would be: however they interleave, no more checks than the limit get through.
 */
describeStores('rate limits under parallel attempts on %s', (kind) => {
  let ctx: TestContext;
  let other: Awaited<ReturnType<typeof buildApp>>;
  let closeOther: () => Promise<void>;
  let acc: Account;
  /** Alternates between the two apps. */
  const app = (i: number) => (i % 2 === 0 ? ctx.app : other);
  const statuses = (responses: { statusCode: number }[]) => {
    const count: Record<number, number> = {};
    for (const r of responses) count[r.statusCode] = (count[r.statusCode] ?? 0) + 1;
    return count;
  };
  const captchas = (n: number) => Promise.all(Array.from({ length: n }, () => solvedCaptcha(ctx)));

  beforeAll(async () => {
    ctx = await openTestApp(kind, { 'company.email': 'soporte@proveedor.es' });
    const store = await openStore(ctx.config);
    other = await buildApp({ config: ctx.config, store, worker: false });
    closeOther = async () => {
      await other.close();
      await store.destroy();
    };
    acc = await createAccount(ctx.store, {
      users: { victim: 'all=write', ana: 'all=write' },
      items: [{ reference: 'rl.es', domain: true }],
    });
  });
  afterAll(async () => {
    await closeOther();
    await ctx.close();
  });

  const login = (i: number, fields: Record<string, string>, ip: string) =>
    app(i).inject({ method: 'POST', url: '/p247/user/login/', remoteAddress: ip, headers: FORM, payload: encode(fields) });

  it('checks at most 5 passwords of one account, however many arrive at once', async () => {
    const solved = await captchas(60);
    const answers = await Promise.all(
      solved.map((recaptcha_response, i) =>
        login(i, { domainName: acc.realm, username: 'victim', password: `wrong-password-${i}`, recaptcha_response }, '10.20.0.1'),
      ),
    );
    expect(statuses(answers)).toEqual({ 401: 5, 429: 55 });
    const checked = await ctx.store
      .selectFrom('audit_event')
      .select('id')
      .where('ip', '=', '10.20.0.1')
      .where('outcome', '=', 'failure')
      .execute();
    expect(checked).toHaveLength(5);
  });

  it('checks at most 20 passwords from one address, however many arrive at once', async () => {
    const solved = await captchas(60);
    const answers = await Promise.all(
      solved.map((recaptcha_response, i) =>
        login(i, { domainName: acc.realm, username: `guess${i}`, password: 'wrong-password', recaptcha_response }, '10.20.0.2'),
      ),
    );
    const { 401: checked = 0, 429: refused = 0 } = statuses(answers);
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(20);
    expect(checked + refused).toBe(60);
  });

  it('checks at most 5 wrong current passwords on change, however many arrive at once', async () => {
    const headers = { ...FORM, ...(await acc.as('ana')) };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        app(i).inject({
          method: 'POST',
          url: '/p247/user/changepass/',
          headers,
          payload: encode({ actualPassword: `not-it-${i}`, password: 'a-new-password-1' }),
        }),
      ),
    );
    expect(statuses(answers)).toEqual({ 400: 5, 429: 15 });
    // The limit holds the password, not the account: the right one is refused too until the window ends.
    const right = await ctx.app.inject({
      method: 'POST',
      url: '/p247/user/changepass/',
      headers,
      payload: encode({ actualPassword: TEST_PASSWORD, password: 'a-new-password-1' }),
    });
    expect(right.statusCode).toBe(429);
  });

  it('sends at most 5 forgot-password messages an hour from one address, however many arrive at once', async () => {
    const solved = await captchas(12);
    const answers = await Promise.all(
      solved.map((recaptcha_response, i) =>
        app(i).inject({
          method: 'POST',
          url: '/p247/contact/',
          remoteAddress: '10.20.0.3',
          headers: FORM,
          payload: encode({
            domain: acc.realm,
            user: 'ana',
            name: 'Ana',
            email: 'ana@cliente.es',
            contents: 'Ayuda',
            privacy: 'on',
            recaptcha_response,
          }),
        }),
      ),
    );
    expect(statuses(answers)).toEqual({ 200: 5, 429: 7 });
  });

  const contactMail = (i: number, headers: Record<string, string>) =>
    app(i).inject({
      method: 'POST',
      url: '/p247/contactmail/',
      headers: { ...FORM, ...headers },
      payload: encode({ email: 'ana@cliente.es', subject: 'Hola', contents: 'x'.repeat(5000), privacy: '1' }),
    });

  it('sends at most 5 signed-in contact messages an hour per user, a read-only one included', async () => {
    const reader = await createAccount(ctx.store, { users: { lector: 'all=read' }, items: [{ reference: 'cm1.es', mail: true }] });
    const headers = await reader.as('lector');
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => contactMail(i, headers)));
    expect(statuses(answers)).toEqual({ 200: 5, 429: 55 });
    expect(answers.find((r) => r.statusCode === 429)!.json().system.errors[0]).toMatch(/Vuelve a intentarlo en 60 minutos/);
  });

  it('sends at most 20 signed-in contact messages an hour per realm, however many users it has', async () => {
    const users = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`u${i}`, 'all=read']));
    const realm = await createAccount(ctx.store, { users, items: [{ reference: 'cm2.es', mail: true }] });
    const headers = await Promise.all(Object.keys(users).map((u) => realm.as(u)));
    // Each user in turn, up to their own limit: the sixth user finds the realm's 20 used up.
    const sent: number[] = [];
    for (const h of headers) {
      const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => contactMail(i, h)));
      sent.push(answers.filter((r) => r.statusCode === 200).length);
    }
    expect(sent).toEqual([5, 5, 5, 5, 0, 0]);
  });
});
