import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePowerDnsTest, openPowerDnsTest, type PowerDnsTest } from './helpers.ts';
import { dig, PDNS_MISSING } from './powerdns-harness.ts';
import { servedDifferences } from './served.ts';
import { zoneFile } from './zones.ts';

describe.skipIf(PDNS_MISSING)('zone import and revert against a real PowerDNS', () => {
  let { pdns, t } = {} as PowerDnsTest;
  beforeAll(async () => ({ pdns, t } = await openPowerDnsTest()), 30000);
  afterAll(() => closePowerDnsTest({ pdns, t }));

  it('serves an imported zone as listed, and after its revert no longer serves what it added', async () => {
    await t.list();
    await t.ctx.app.runtime.outbox.drain();
    expect((await t.post('import/', { zone: zoneFile('provider.zone') })).status).toBe(200);
    await t.ctx.app.runtime.outbox.drain();
    expect(await servedDifferences(pdns.dnsPort, await t.list())).toEqual([]);
    expect((await dig(pdns.dnsPort, 'host.sub.zona.es', 'AAAA')).map((a) => a.rdata)).toEqual(['2001:db8::1']);
    const [imported] = (await t.get('history/')).body.data.changes;
    expect((await t.post(`history/${imported.id}/revert/`, {})).status).toBe(200);
    await t.ctx.app.runtime.outbox.drain();
    expect(await servedDifferences(pdns.dnsPort, await t.list())).toEqual([]);
    expect(await dig(pdns.dnsPort, 'host.sub.zona.es', 'AAAA')).toEqual([]);
    expect(await dig(pdns.dnsPort, '_sip._tcp.zona.es', 'SRV')).toEqual([]);
  });
});
