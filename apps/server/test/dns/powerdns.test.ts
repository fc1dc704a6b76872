import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePowerDnsTest, openPowerDnsTest, type PowerDnsTest } from './helpers.ts';
import { checkZone, dig, PDNS_MISSING } from './powerdns-harness.ts';
import { ONE_OF_EACH } from './records.ts';
import { servedDifferences } from './served.ts';

describe.skipIf(PDNS_MISSING)('the PowerDNS driver against a real PowerDNS', () => {
  let { pdns, t } = {} as PowerDnsTest;
  beforeAll(async () => ({ pdns, t } = await openPowerDnsTest()), 30000);
  afterAll(() => closePowerDnsTest({ pdns, t }));

  it('serves the template zone, then each record type exactly as entered', async () => {
    await t.list();
    await t.ctx.app.runtime.outbox.drain();
    expect(await servedDifferences(pdns.dnsPort, await t.list())).toEqual([]);
    for (const record of ONE_OF_EACH) expect((await t.create(record)).status).toBe(200);
    await t.ctx.app.runtime.outbox.drain();
    const list = await t.list();
    expect(await servedDifferences(pdns.dnsPort, list)).toEqual([]);
    const text = (await t.get('export/')).body.data.text;
    expect(await checkZone('zona.es', text)).toMatchObject({ ok: true });
  });

  it('serves an edit and a delete within a second', async () => {
    const stop = t.ctx.app.runtime.outbox.start(50);
    try {
      const a = (await t.list()).find((r) => r.zona === 'www2' && r.type === 'A')!;
      let start = Date.now();
      await t.post(`${a.id}/save/`, { value: '203.0.113.99', ttl: 600 });
      while ((await dig(pdns.dnsPort, 'www2.zona.es', 'A'))[0]?.rdata !== '203.0.113.99') await new Promise((r) => setTimeout(r, 20));
      expect(Date.now() - start).toBeLessThan(1000);
      start = Date.now();
      await t.get(`${a.id}/delete/`);
      while ((await dig(pdns.dnsPort, 'www2.zona.es', 'A')).length > 0) await new Promise((r) => setTimeout(r, 20));
      expect(Date.now() - start).toBeLessThan(1000);
    } finally {
      stop();
    }
  });

  it('applies a change made while PowerDNS was down once it is back, and shows the failure meanwhile', async () => {
    await pdns.kill();
    const created = await t.create({ type: 'A', zona: 'caida', value: '198.51.100.1' });
    expect(created.status).toBe(200);
    await t.ctx.app.runtime.outbox.runOne();
    const job = await t.ctx.store.selectFrom('job').selectAll().where('id', '=', created.body.system.job!).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'pending', attempts: 1 });
    expect(job.last_error).toMatch(/fetch failed|ECONNREFUSED/);
    await pdns.start();
    const stop = t.ctx.app.runtime.outbox.start(100);
    try {
      const deadline = Date.now() + 10000;
      while ((await dig(pdns.dnsPort, 'caida.zona.es', 'A')).length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
    } finally {
      stop();
    }
    expect((await dig(pdns.dnsPort, 'caida.zona.es', 'A')).map((a) => a.rdata)).toEqual(['198.51.100.1']);
    expect(await servedDifferences(pdns.dnsPort, await t.list())).toEqual([]);
  }, 20000);

  it('serves restore defaults and delete all as single atomic changes', async () => {
    await t.get('delete/?confirm=1');
    await t.ctx.app.runtime.outbox.drain();
    const kept = await t.list();
    expect(await servedDifferences(pdns.dnsPort, kept)).toEqual([]);
    expect(await dig(pdns.dnsPort, '_dmarc.zona.es', 'TXT')).toEqual([]);
    await t.get('restore/');
    await t.ctx.app.runtime.outbox.drain();
    expect(await servedDifferences(pdns.dnsPort, await t.list())).toEqual([]);
  });

  it("removes a terminated item's zone: nothing of it is served any more, and removing it again is no error", async () => {
    await t.list();
    await t.ctx.app.runtime.outbox.drain();
    expect((await dig(pdns.dnsPort, 'zona.es', 'SOA')).length).toBe(1);
    await t.ctx.app.runtime.drivers.dns.removeZone('zona.es');
    expect(await dig(pdns.dnsPort, 'zona.es', 'SOA')).toEqual([]);
    await t.ctx.app.runtime.drivers.dns.removeZone('zona.es');
  });
});
