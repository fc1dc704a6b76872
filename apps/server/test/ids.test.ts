import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Account, createAccount, registerDomains } from './fixtures.ts';
import { describeStores, openTestApp, type TestContext } from './stores.ts';

// One past PostgreSQL's 4-byte serial, and a number no store holds: each must be an unknown id, not a 500.
const HUGE = ['2147483648', '99999999999999', '1e3', '0'];
const URLS = [
  '/p247/domain/{id}/',
  '/p247/domain/{item}/gluerecord/{id}/delete/',
  '/p247/domain/{item}/dnssec/{id}/delete/',
  '/p247/service/{id}/',
  '/p247/service/{item}/ftp/{id}/',
  '/p247/service/{item}/correo/{id}/',
  '/p247/service/{item}/alias/{id}/',
  '/p247/service/{item}/ddbb/{id}/',
  '/p247/service/{item}/subdomain/{id}/',
  '/p247/service/{item}/redirection/{id}/',
  '/p247/service/{item}/dns/{id}/',
];

describeStores('ids in the path on %s', (kind) => {
  let ctx: TestContext;
  let account: Account;
  beforeAll(async () => {
    ctx = await openTestApp(kind);
    account = await createAccount(ctx.store, {
      users: { w: 'all=write' },
      items: [{ reference: 'ids.es', domain: true, service: 'normal', mail: true }],
    });
    // Registered, as the operator does (decision 051): a domain not at the registry answers 409 before its path's ids are read.
    await registerDomains(ctx.app, account);
  });
  afterAll(() => ctx.close());

  it.each(URLS)('answer 404 for an id that cannot exist in %s', async (pattern) => {
    const headers = await account.as('w');
    for (const id of HUGE) {
      const url = pattern.replace('{item}', String(account.items['ids.es'])).replace('{id}', id);
      expect((await ctx.app.inject({ method: 'GET', url, headers })).statusCode, url).toBe(404);
    }
  });
});
