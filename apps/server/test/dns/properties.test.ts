import type { DnsRecord } from '@atalaya/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RRset, txtContent } from '../../src/modules/dns/rrsets.ts';
import { describeStores } from '../stores.ts';
import { hostileInput, recordInput } from './arbitraries.ts';
import { type DnsTest, openDnsTest } from './helpers.ts';

/** The presentation form a listed record takes in the served zone. */
function servedContent(r: DnsRecord): string {
  if (r.type === 'TXT') return txtContent(r.value);
  if (r.type === 'MX' || r.type === 'SRV') return `${r.priority} ${r.value}`;
  return r.value;
}

describeStores('DNS calls under arbitrary input on %s', (kind) => {
  let t: DnsTest;
  beforeAll(async () => {
    t = await openDnsTest(kind);
  });
  afterAll(() => t.ctx.close());

  it('never answer 500, whatever the fields hold', async () => {
    await fc.assert(
      fc.asyncProperty(hostileInput, async (input) => {
        const created = await t.create(input);
        expect(created.status).toBeLessThan(500);
        const id = created.body.data?.dns?.id ?? (await t.list())[0].id;
        expect((await t.post(`${id}/save/`, { value: input.value, ttl: input.ttl, priority: input.priority })).status).toBeLessThan(500);
      }),
      { numRuns: 50 },
    );
  }, 60000);

  it('serve every typical record they accept, and name the field of every one they refuse, storing nothing', async () => {
    const FIELDS = ['type', 'zona', 'value', 'ttl', 'priority'];
    let accepted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(recordInput, async (input) => {
        const before = await t.list();
        const reply = await t.create(input);
        if (reply.status === 400) {
          refused++;
          const { inputs, errors } = reply.body.system;
          expect(inputs.length).toBeGreaterThan(0);
          for (const field of inputs) expect(FIELDS).toContain(field);
          expect(errors).toHaveLength(inputs.length);
          for (const message of errors) expect(message).toMatch(/\S/);
          expect(await t.list()).toEqual(before);
          return;
        }
        expect(reply.status).toBe(200);
        accepted++;
        const record: DnsRecord = reply.body.data.dns;
        expect(record.type).toBe(input.type);
        expect((await t.list()).find((r) => r.id === record.id)).toEqual(record);
        await t.ctx.app.runtime.outbox.drain();
        const zone = await t.ctx.store.selectFrom('dns_zone').selectAll().where('item_id', '=', t.id).executeTakeFirstOrThrow();
        expect(zone.applied_version).toBe(zone.version);
        const served = (JSON.parse(zone.served!) as RRset[]).find(
          (set) => set.name === `${record.referencePunycode}.` && set.type === record.type,
        );
        expect(served?.contents, `${record.type} ${record.referencePunycode}`).toContain(servedContent(record));
      }),
      { numRuns: 50 },
    );
    // Mostly valid input: a generator whose records were all refused would prove nothing.
    expect(accepted).toBeGreaterThan(20);
    expect(accepted + refused).toBe(50);
  }, 60000);
});
