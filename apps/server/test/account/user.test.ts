import { afterAll, beforeAll, expect, it } from 'vitest';
import { verifyPassword } from '../../src/passwords.ts';
import { type Account, createAccount, TEST_PASSWORD } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { encode, FORM, login, sessionToken } from './helpers.ts';

describeStores('the user calls on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  const post = async (url: string, username: string, fields: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'POST', url, headers: { ...FORM, ...(await acc.as(username)) }, payload: encode(fields) });

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    acc = await createAccount(ctx.store, {
      users: { ana: 'all=write', luis: 'all=read,domain=disabled,domain_contacts=disabled', pref: 'all=read' },
      items: [
        { reference: 'one.es', domain: true, service: 'normal' },
        { reference: 'two.es', domain: true, mail: true },
        { reference: 'three.es', mail: true },
      ],
    });
  });
  afterAll(() => ctx.close());

  it('answers the dashboard record: user, business, ip, last login and the domains the user may see', async () => {
    await login(ctx, { domainName: acc.realm, username: 'ana', password: TEST_PASSWORD }, {}, '192.0.2.7');
    const res = await post('/p247/user/info/', 'ana');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id: acc.users.ana,
      user: 'ana',
      domainName: acc.realm,
      business: 'Atalaya',
      company: 'Atalaya',
      ip: '192.0.2.7',
      total_domain: 2,
      language: 'es',
      theme: 'system',
      color: 'indigo',
      canSetColor: false,
    });
    expect(res.json().data.tsLastLogin).toBeGreaterThan(0);
  });

  it('counts a domain the user sees through any domain area, and none through mail or service only', async () => {
    // luis still reads the other domain areas, so both domains count.
    expect((await post('/p247/user/info/', 'luis')).json().data.total_domain).toBe(2);
    const other = await createAccount(ctx.store, {
      users: { m: 'servicemail=read' },
      items: [{ reference: 'x.es', domain: true, mail: true }],
    });
    const res = await ctx.app.inject({ method: 'POST', url: '/p247/user/info/', headers: await other.as('m') });
    expect(res.json().data).toMatchObject({ total_domain: 0, tsLastLogin: null, ip: null });
  });

  it('saves the theme and the language, and confirms in the language just chosen', async () => {
    const res = await post('/p247/user/preferences/', 'pref', { theme: 'dark', language: 'en' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ theme: 'dark', color: 'indigo', language: 'en' });
    expect(res.json().system.info).toEqual(['Preferences saved']);
    expect((await post('/p247/user/info/', 'pref')).json().data).toMatchObject({ theme: 'dark', language: 'en' });
  });

  it.each([
    [{ theme: 'sepia' }, 'theme', 'Opción no válida'],
    [{ language: 'fr' }, 'language', 'Opción no válida'],
    [{ color: 'chartreuse' }, 'color', 'Opción no válida'],
    [{ color: 'teal' }, 'color', 'No puedes elegir el color'],
  ])('refuses the preferences %o with an error under %s', async (fields, input, message) => {
    const res = await post('/p247/user/preferences/', 'ana', fields);
    expect(res.statusCode).toBe(400);
    expect(res.json().system).toMatchObject({ inputs: [input], errors: [message] });
  });

  it('saves a palette colour when the provider lets customers choose it', async () => {
    const open = await openTestApp(kind, { 'company.allowCustomerColor': true });
    try {
      const other = await createAccount(open.store, { users: { ana: 'all=write' }, items: [{ reference: 'x.es', domain: true }] });
      const res = await open.app.inject({
        method: 'POST',
        url: '/p247/user/preferences/',
        headers: { ...FORM, ...(await other.as('ana')) },
        payload: 'color=teal',
      });
      expect(res.json().data.color).toBe('teal');
      const info = await open.app.inject({ method: 'POST', url: '/p247/user/info/', headers: await other.as('ana') });
      expect(info.json().data).toMatchObject({ color: 'teal', canSetColor: true });
    } finally {
      await open.close();
    }
  });
});

describeStores('changing the password on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  const NEW = 'a-brand-new-password';
  const change = (headers: Record<string, string>, fields: Record<string, string>) =>
    ctx.app.inject({ method: 'POST', url: '/p247/user/changepass/', headers: { ...FORM, ...headers }, payload: encode(fields) });

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    acc = await createAccount(ctx.store, {
      users: { ana: 'all=write', luis: 'all=write' },
      items: [{ reference: 'one.es', domain: true }],
    });
  });
  afterAll(() => ctx.close());

  it.each([
    // The current password is checked with the code (either will do), after the fields' own checks.
    [{}, ['password', 'actualPassword'], ['Campo obligatorio', 'Campo obligatorio']],
    [{ actualPassword: TEST_PASSWORD, password: 'short' }, ['password'], ['Debe tener al menos 10 caracteres']],
    [{ actualPassword: TEST_PASSWORD, password: 'x'.repeat(129) }, ['password'], ['Debe tener como máximo 128 caracteres']],
    [{ actualPassword: 'not-my-password', password: NEW }, ['actualPassword'], ['La contraseña actual no es correcta']],
    [{ actualPassword: TEST_PASSWORD, password: TEST_PASSWORD }, ['password'], ['La nueva contraseña debe ser distinta de la actual']],
  ])('refuses %o with an error under each field', async (fields, inputs, errors) => {
    const res = await change(await acc.as('ana'), fields);
    expect(res.statusCode).toBe(400);
    expect(res.json().system).toMatchObject({ inputs, errors });
  });

  it('ends every session of the user and keeps this browser signed in with a fresh one', async () => {
    const here = await acc.as('luis');
    const elsewhere = await acc.as('luis');
    const res = await change(here, { actualPassword: TEST_PASSWORD, password: NEW, language: 'en' });
    expect(res.statusCode).toBe(200);
    expect(res.json().system.info).toEqual(['Password changed. Your other sessions have been closed and your API tokens revoked']);
    const fresh = sessionToken(res)!;
    expect(fresh).toBeDefined();
    const info = (headers: Record<string, string>) => ctx.app.inject({ method: 'POST', url: '/p247/user/info/', headers });
    expect((await info(here)).json().system.statusCode).toBe(101);
    expect((await info(elsewhere)).json().system.statusCode).toBe(101);
    expect((await info({ cookie: `atalaya_sid=${fresh}`, 'x-dd-request': '1' })).statusCode).toBe(200);
    const sessions = await ctx.store.selectFrom('session').select('id').where('user_id', '=', acc.users.luis).execute();
    expect(sessions).toHaveLength(1);
    const signIn = (password: string) => login(ctx, { domainName: acc.realm, username: 'luis', password }, {}, '10.3.3.3');
    expect((await signIn(TEST_PASSWORD)).statusCode).toBe(401);
    expect((await signIn(NEW)).statusCode).toBe(200);
    const audit = await ctx.store
      .selectFrom('audit_event')
      .select(['action', 'outcome', 'detail'])
      .where('action', '=', 'changepass')
      .where('user_id', '=', acc.users.luis)
      .execute();
    expect(audit).toEqual([{ action: 'changepass', outcome: 'success', detail: JSON.stringify({ revokedApiAccess: 0 }) }]);
  });

  it('locks the change after 5 wrong current passwords, not before, even for the right one', async () => {
    const other = await createAccount(ctx.store, { users: { eva: 'all=write' }, items: [{ reference: 'two.es', domain: true }] });
    const headers = await other.as('eva');
    for (let i = 0; i < 5; i++) {
      const wrong = await change(headers, { actualPassword: `wrong-${i}-password`, password: NEW });
      expect(wrong.json().system.errors, `attempt ${i + 1}`).toEqual(['La contraseña actual no es correcta']);
    }
    const locked = await change(headers, { actualPassword: TEST_PASSWORD, password: NEW });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().system.errors[0]).toMatch(/Vuelve a intentarlo en 15 minutos/);
    const row = await ctx.store.selectFrom('user').select('password_hash').where('id', '=', other.users.eva).executeTakeFirstOrThrow();
    expect(await verifyPassword(row.password_hash, TEST_PASSWORD)).toBe(true);
  });
});
