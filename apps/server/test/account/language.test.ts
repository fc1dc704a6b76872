import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Account, createAccount } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

describeStores('the language of messages for a signed-in user on %s', (kind) => {
  let ctx: TestContext;
  let account: Account;
  beforeAll(async () => {
    ctx = await openTestApp(kind);
    account = await createAccount(ctx.store, { users: { ana: 'all=read' }, items: [{ reference: 'idioma.es', domain: true }] });
  });
  afterAll(() => ctx.close());

  const missingItem = async (cookie = '') => {
    const headers = await account.as('ana');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/p247/permission/999999/',
      headers: { ...headers, cookie: `${headers.cookie}${cookie}` },
    });
    return res.json().system.errors[0];
  };

  it('follows the screens (the _lang cookie) when they show another language than the saved one', async () => {
    expect(await missingItem()).toBe('Recurso no encontrado'); // saved preference: es
    expect(await missingItem('; _lang=en')).toBe('Resource not found');
    expect(await missingItem('; _lang=ca')).toBe('Recurs no trobat');
  });
});
