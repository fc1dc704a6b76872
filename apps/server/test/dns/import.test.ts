import { existsSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAccount } from '../fixtures.ts';
import { skipReason } from '../skip.ts';
import { describeStores } from '../stores.ts';
import { type DnsTest, openDnsTest } from './helpers.ts';
import { ONE_OF_EACH } from './records.ts';
import { bindReading, zoneFile } from './zones.ts';

const HAS_CHECKZONE = !skipReason(
  existsSync('/usr/bin/named-checkzone') || existsSync('/usr/sbin/named-checkzone')
    ? null
    : 'named-checkzone (bind9-utils) is missing: zone import checks',
);

describeStores('zone import on %s', (kind) => {
  let t: DnsTest;
  beforeAll(async () => {
    t = await openDnsTest(kind);
  });
  afterAll(() => t.ctx.close());
  const exportText = async () => (await t.get('export/')).body.data.text as string;
  const preview = (zone: string, headers = t.w) => t.post('import/preview/?language=en', { zone }, headers);

  it('previews a file: the RRsets added, changed and removed, and each refused line with why', async () => {
    const reply = await preview(zoneFile('provider.zone'));
    expect(reply.status).toBe(200);
    const { plan } = reply.body.data;
    expect(plan.refused).toEqual([
      {
        line: 4,
        source: '@       IN SOA ns1.other.net. hostmaster.zona.es. ( 2024010101 ; serial',
        reason: 'The panel writes the SOA record itself',
      },
      { line: 22, source: 'host    IN HINFO "PC" "Linux"', reason: 'The panel does not serve HINFO records' },
    ]);
    expect(plan.added).toContainEqual({ name: 'host.sub.zona.es', type: 'AAAA', ttl: 300, values: ['2001:db8::1'] });
    expect(plan.added).toContainEqual({
      name: 'selector._domainkey.zona.es',
      type: 'TXT',
      ttl: 3600,
      values: ['"v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC"'],
    });
    expect(plan.added).toContainEqual({ name: '_sip._tcp.zona.es', type: 'SRV', ttl: 3600, values: ['10 5 5060 sip.zona.es.'] });
    // The template's apex A (192.0.2.10 at the default TTL) becomes the file's.
    expect(plan.changed).toContainEqual({
      before: { name: 'zona.es', type: 'A', ttl: 3600, values: ['192.0.2.10'] },
      after: { name: 'zona.es', type: 'A', ttl: 3600, values: ['203.0.113.10'] },
    });
    // The template's apex NS equal the file's as served: unchanged, so not listed.
    expect([...plan.added, ...plan.removed].some((s: { type: string }) => s.type === 'NS')).toBe(false);
    expect(plan.removed).toEqual([]);
  });

  it('refuses a type the panel does not serve, a name outside the zone, a CNAME beside other data, $INCLUDE and an unreadable line', async () => {
    const { plan } = (await preview(zoneFile('bad.zone'))).body.data;
    expect(plan.refused.map((r: { line: number; reason: string }) => [r.line, r.reason])).toEqual([
      [3, "$INCLUDE is not supported: paste the included file's lines here"],
      [7, 'A CNAME cannot share its name with other records'],
      [8, 'The name must be inside the zone zona.es'],
      [9, 'Line not understood as a zone file record'],
    ]);
    expect(plan.added).toEqual([{ name: 'web.zona.es', type: 'A', ttl: 3600, values: ['192.0.2.7'] }]);
  });

  it('changes nothing with a preview, of a good file or a bad one', async () => {
    const before = await exportText();
    const changes = (await t.get('history/')).body.data.changes.length;
    for (const file of ['provider.zone', 'bad.zone', 'units.zone']) expect((await preview(zoneFile(file))).status).toBe(200);
    expect(await exportText()).toBe(before);
    expect((await t.get('history/')).body.data.changes).toHaveLength(changes);
  });

  it.skipIf(!HAS_CHECKZONE).each(['provider.zone', 'units.zone'])(
    "applies %s as one change, and its export is named-checkzone's reading of the file, record for record",
    async (file) => {
      const text = zoneFile(file);
      const applied = await t.post('import/?language=en', { zone: text });
      expect(applied.status).toBe(200);
      expect(applied.body.system.info[0]).toBe('Zone imported');
      const { changes } = (await t.get('history/')).body.data;
      const logged = await t.ctx.store.selectFrom('audit_event').select('changes').orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(logged.changes).not.toContain('$ORIGIN');
      expect(JSON.parse(logged.changes).map((c: { field: string }) => c.field)).toEqual(['added', 'changed', 'removed', 'refused']);
      expect(changes[0]).toMatchObject({ kind: 'import', by: expect.stringMatching(/^w@/) });
      await t.ctx.app.runtime.outbox.drain();
      expect(await bindReading('zona.es', await exportText())).toEqual(await bindReading('zona.es', text, ['HINFO']));
    },
  );

  it('reads its own export back as nothing to change, ANAME and a long TXT included', async () => {
    for (const record of ONE_OF_EACH) expect((await t.create(record)).status).toBe(200);
    const { plan } = (await preview(await exportText())).body.data;
    expect(plan).toMatchObject({ added: [], changed: [], removed: [] });
    expect(plan.refused.map((r: { reason: string }) => r.reason)).toEqual(['The panel writes the SOA record itself']);
    const version = async () =>
      (await t.ctx.store.selectFrom('dns_zone').select('version').where('item_id', '=', t.id).executeTakeFirstOrThrow()).version;
    const before = await version();
    const applied = await t.post('import/?language=en', { zone: await exportText() });
    expect(applied.status).toBe(409);
    expect(applied.body.system.errors[0]).toBe('Nothing to change: the zone already holds these records');
    expect(await version()).toBe(before);
  });

  it('answers 400 under the field for an empty file, and a reader gets 403 on both calls', async () => {
    const empty = await t.post('import/preview/?language=en', { zone: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.system.inputs).toEqual(['zone']);
    expect((await preview(zoneFile('units.zone'), t.r)).status).toBe(403);
    expect((await t.post('import/', { zone: zoneFile('units.zone') }, t.r)).status).toBe(403);
  });

  it('hides the zone from a user of another realm', async () => {
    const other = await createAccount(t.ctx.store, { users: { o: 'all=write' }, items: [{ reference: 'otro.es', service: 'normal' }] });
    const outsider = await other.as('o');
    expect((await preview(zoneFile('units.zone'), outsider)).status).toBe(404);
  });
});
