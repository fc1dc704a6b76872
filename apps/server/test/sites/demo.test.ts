import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/demo/seed.ts';
import { readLocalSite } from '../../src/drivers/sites/local.ts';
import { openTestApp, type TestContext } from '../stores.ts';

describe('the demo’s sites', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await openTestApp('sqlite');
  });
  afterAll(() => ctx.close());

  it('seeds sites and redirections that the web driver applies', async () => {
    await seedDemo(ctx.app.runtime, 'demo-password-123');
    await ctx.app.runtime.outbox.drain();
    const failed = await ctx.store
      .selectFrom('job')
      .select(['kind', 'last_error'])
      .where('kind', 'like', 'sites.%')
      .where('status', '!=', 'done')
      .execute();
    expect(failed).toEqual([]);
    const www = await ctx.store.selectFrom('site').select('id').where('name', '=', 'www').orderBy('id').executeTakeFirstOrThrow();
    expect(readLocalSite(ctx.config.dataDir, `site-${www.id}`)?.redirections).toHaveLength(2);
    const parking = await ctx.store.selectFrom('redirection').select('service_id').where('site_id', 'is', null).executeTakeFirstOrThrow();
    expect(readLocalSite(ctx.config.dataDir, `apex-${parking.service_id}`)?.host).toBe('restaurante-sol.es');
  });
});
