import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordInput } from './arbitraries.ts';
import { closePowerDnsTest, openPowerDnsTest, type PowerDnsTest } from './helpers.ts';
import { checkZone, PDNS_MISSING } from './powerdns-harness.ts';
import { servedDifferences } from './served.ts';

describe.skipIf(PDNS_MISSING)('any record the API accepts', () => {
  let { pdns, t } = {} as PowerDnsTest;
  beforeAll(async () => ({ pdns, t } = await openPowerDnsTest()), 30000);
  afterAll(() => closePowerDnsTest({ pdns, t }));

  it('is served by PowerDNS exactly as listed, and the zone passes named-checkzone', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(recordInput, async (input) => {
        const reply = await t.create(input);
        if (reply.status !== 200) {
          // Refused: with a field named, never a fault.
          expect(reply.status).toBe(400);
          expect(reply.body.system.inputs.length).toBeGreaterThan(0);
          return;
        }
        accepted++;
        await t.ctx.app.runtime.outbox.drain();
        const dns = reply.body.data.dns;
        const group = (await t.list()).filter((r) => r.referencePunycode === dns.referencePunycode && r.type === dns.type);
        expect(await servedDifferences(pdns.dnsPort, group)).toEqual([]);
        const check = await checkZone('zona.es', (await t.get('export/')).body.data.text);
        expect(check.output).toContain('OK');
        expect(check.ok).toBe(true);
      }),
      { numRuns: 40 },
    );
    expect(accepted).toBeGreaterThan(10);
    expect(await servedDifferences(pdns.dnsPort, await t.list())).toEqual([]);
  }, 120000);
});
