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

describe('the demo’s mail domains', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await openTestApp('sqlite');
    await seedDemo(ctx.app.runtime, 'demo-password-123');
    // The seed drains for a bounded time; on a loaded machine the last keys may still be queued.
    await ctx.app.runtime.outbox.drain();
  });
  afterAll(() => ctx.close());

  it('serve their DKIM, SPF and DMARC records from the local DNS driver’s state as soon as the demo is seeded', async () => {
    const mail = await ctx.store
      .selectFrom('mail_service')
      .innerJoin('item', 'item.id', 'mail_service.item_id')
      .innerJoin('service', 'service.item_id', 'item.id')
      .select(['item.id', 'item.reference'])
      .execute();
    expect(mail.length).toBeGreaterThan(3);
    for (const { id, reference } of mail) {
      const key = await ctx.store.selectFrom('mail_dkim').select('selector').where('item_id', '=', id).executeTakeFirstOrThrow();
      const zone = await ctx.store.selectFrom('dns_zone').select('served').where('item_id', '=', id).executeTakeFirstOrThrow();
      const served = (JSON.parse(zone.served ?? '[]') as { name: string; type: string; contents: string[] }[]).map(
        (s) => `${s.name} ${s.type} ${s.contents.join(' ')}`,
      );
      for (const wanted of [
        `${key.selector}._domainkey.${reference}. TXT "v=DKIM1; k=rsa; p=`,
        `${reference}. TXT "v=spf1 a mx ~all"`,
        `_dmarc.${reference}. TXT "v=DMARC1; p=none"`,
      ])
        expect(
          served.some((line) => line.startsWith(wanted)),
          `${reference}: ${wanted}`,
        ).toBe(true);
    }
  });
});
