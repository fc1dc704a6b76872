import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLocalSite } from '../../src/drivers/sites/local.ts';
import { type Account, createAccount } from '../fixtures.ts';
import { openTestApp, type TestContext } from '../stores.ts';
import { caller } from './helpers.ts';

describe('changes of the service that its sites depend on', () => {
  let ctx: TestContext;
  let account: Account;
  let id: number;
  let siteKey: string;
  const api = caller(() => ctx);
  beforeAll(async () => {
    ctx = await openTestApp('sqlite');
    account = await createAccount(ctx.store, {
      users: { w: 'all=write' },
      items: [{ reference: 'cambios.es', domain: true, service: 'normal' }],
    });
    id = account.items['cambios.es'];
    const created = await api.post(`/service/${id}/subdomain/create/`, await account.as('w'), {
      subDomain: 'blog',
      folder: 'blog',
      SSLActive: '0',
    });
    expect(created.status).toBe(200);
    siteKey = `site-${created.body.data.subdomain.id}`;
    await ctx.app.runtime.outbox.drain();
  });
  afterAll(() => ctx.close());

  it('re-applies every site of the service when its PHP version changes', async () => {
    const changed = await api.post(`/service/${id}/php/`, await account.as('w'), { phpVersion: '8.3' });
    expect(changed.status).toBe(200);
    await ctx.app.runtime.outbox.drain();
    expect(readLocalSite(ctx.config.dataDir, siteKey)?.service.phpVersion).toBe('8.3');
  });

  it('re-applies every site of the service when parking is switched on', async () => {
    expect((await api.get(`/service/${id}/parking/active/`, await account.as('w'))).status).toBe(200);
    await ctx.app.runtime.outbox.drain();
    expect(readLocalSite(ctx.config.dataDir, siteKey)?.service.parkingActive).toBe(true);
  });
});
