import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_KINDS } from '../stores.ts';
import { hostileInput, recordInput } from './arbitraries.ts';
import { type DnsTest, openDnsTest } from './helpers.ts';

describe.each(STORE_KINDS)('DNS calls under arbitrary input on %s', (kind) => {
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

  it('accept typical records or refuse them with a field error, never a fault', async () => {
    await fc.assert(
      fc.asyncProperty(recordInput, async (input) => {
        const reply = await t.create(input);
        expect([200, 400]).toContain(reply.status);
        if (reply.status === 400) expect(reply.body.system.inputs.length).toBeGreaterThan(0);
      }),
      { numRuns: 50 },
    );
  }, 60000);
});
