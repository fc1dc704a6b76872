import { ZONE_IMPORT_LIMITS } from '@atalaya/contract';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { createAccount } from '../fixtures.ts';
import { describeStores } from '../stores.ts';
import { type DnsTest, openDnsTest, refusal } from './helpers.ts';
import { zoneFile } from './zones.ts';

/** The size of zone the import must take: before its planner was linear, 1,000 answered 500. */
const RRSETS = 10_000;

/**
 * A master file of `count` RRsets (A, AAAA, MX, TXT in turn, one name each), the `round`-th
 * version of it: a later round gives every RRset other data, so importing it changes them all.
 */
function bigZone(count: number, round = 1): string {
  const lines = ['$TTL 3600', '@ IN NS ns1.example.net.', '@ IN NS ns2.example.net.'];
  for (let i = 0; i < count; i++) {
    const name = `h${i}`;
    const n = i + round * 7;
    if (i % 4 === 0) lines.push(`${name} IN A 10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`);
    else if (i % 4 === 1) lines.push(`${name} IN AAAA 2001:db8::${n.toString(16)}`);
    else if (i % 4 === 2) lines.push(`${name} IN MX 10 mx${n}.example.net.`);
    else lines.push(`${name} IN TXT "v=spf1 include:_spf${n}.example.net ~all"`);
  }
  return `${lines.join('\n')}\n`;
}

describeStores('zone import of large files on %s', (kind) => {
  let t: DnsTest;
  beforeAll(async () => {
    t = await openDnsTest(kind);
  });
  afterAll(() => t.ctx.close());
  afterEach(() => {
    vi.useRealTimers();
  });
  const version = async () =>
    (await t.ctx.store.selectFrom('dns_zone').select('version').where('item_id', '=', t.id).executeTakeFirstOrThrow()).version;
  const recordCount = async () =>
    Number(
      (
        await t.ctx.store
          .selectFrom('dns_record')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('item_id', '=', t.id)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('previews and imports a zone of 10,000 RRsets, then one that changes all 10,000, and applies both', async () => {
    await t.list();
    const first = bigZone(RRSETS);
    const preview = await t.post('import/preview/?language=en', { zone: first });
    expect(preview.status).toBe(200);
    expect(preview.body.data.plan.added).toHaveLength(RRSETS);
    expect(preview.body.data.plan.refused).toEqual([]);
    const imported = await t.post('import/?language=en', { zone: first });
    expect(imported.status).toBe(200);
    expect(await recordCount()).toBe(RRSETS + 2);
    // The apply job reads the 10,000 RRsets it names.
    await t.ctx.app.runtime.outbox.drain();
    const applied = await t.ctx.store
      .selectFrom('dns_zone')
      .select(['version', 'applied_version'])
      .where('item_id', '=', t.id)
      .executeTakeFirstOrThrow();
    expect(applied.applied_version).toBe(applied.version);

    const second = bigZone(RRSETS, 2);
    const again = await t.post('import/preview/?language=en', { zone: second });
    expect(again.status).toBe(200);
    expect(again.body.data.plan).toMatchObject({ added: [], removed: [] });
    expect(again.body.data.plan.changed).toHaveLength(RRSETS);
    expect((await t.post('import/?language=en', { zone: second })).status).toBe(200);
    await t.ctx.app.runtime.outbox.drain();
    const { changes } = (await t.get('history/')).body.data;
    expect(changes[0]).toMatchObject({ kind: 'import' });
    expect(changes[0].after).toHaveLength(RRSETS);
    // The zone is now the second file: previewing it again changes nothing.
    expect((await t.post('import/preview/?language=en', { zone: second })).body.data.plan).toMatchObject({
      added: [],
      changed: [],
      removed: [],
    });
  });

  it('refuses under the field a file of more records than the cap, and changes nothing', async () => {
    const before = await version();
    const over = bigZone(ZONE_IMPORT_LIMITS.records + 1);
    for (const call of ['import/preview/?language=en', 'import/?language=en']) {
      const reply = await t.post(call, { zone: over });
      expect(refusal(reply)).toEqual({ status: 400, inputs: ['zone'] });
      expect(reply.body.system.errors).toEqual(['The file is too large: an imported zone holds at most 4 MB and 50,000 records']);
    }
    expect(await version()).toBe(before);
  });

  it('refuses under the field a text longer than the cap, in the caller’s language', async () => {
    const long = `${'; a comment line of a zone file that goes on\n'.repeat(Math.ceil(ZONE_IMPORT_LIMITS.characters / 44))}`;
    expect(long.length).toBeGreaterThan(ZONE_IMPORT_LIMITS.characters);
    const reply = await t.post('import/preview/?language=ca', { zone: long });
    expect(refusal(reply)).toEqual({ status: 400, inputs: ['zone'] });
    expect(reply.body.system.errors).toEqual(['El fitxer és massa gran: una zona importada té com a màxim 4 MB i 50.000 registres']);
  });

  it('answers 429 after the limit of previews a minute, to that user only, and previews again a minute later', async () => {
    const other = await createAccount(t.ctx.store, { users: { p: 'all=write' }, items: [{ reference: 'limite.es', service: 'normal' }] });
    const p = await other.as('p');
    const id = other.items['limite.es'];
    const file = zoneFile('units.zone').replaceAll('zona.es', 'limite.es');
    const previewAs = (headers: Record<string, string>) =>
      t.ctx.app.inject({
        method: 'POST',
        url: `/p247/service/${headers === p ? id : t.id}/dns/import/preview/?language=en`,
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', 'x-dd-request': '1' },
        payload: new URLSearchParams({ zone: file }).toString(),
      });
    for (let i = 0; i < ZONE_IMPORT_LIMITS.plansPerMinute; i++) expect((await previewAs(p)).statusCode).toBe(200);
    const refused = await previewAs(p);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().system.errors[0]).toMatch(/^Too many zone previews or imports. Try again in \d+ seconds$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // An import counts against the same limit: it plans as a preview does.
    const imported = await t.ctx.app.inject({
      method: 'POST',
      url: `/p247/service/${id}/dns/import/`,
      headers: { ...p, 'content-type': 'application/x-www-form-urlencoded', 'x-dd-request': '1' },
      payload: new URLSearchParams({ zone: file }).toString(),
    });
    expect(imported.statusCode).toBe(429);
    expect((await previewAs(t.w)).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    expect((await previewAs(p)).statusCode).toBe(200);
  });
});
