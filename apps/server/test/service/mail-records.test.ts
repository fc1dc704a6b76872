import type { DkimKey, DnsRecord } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { describeStores } from '../stores.ts';
import { api, openServiceSuite, type ServiceSuite } from './helpers.ts';

describeStores('the mail records the panel publishes in the zones it hosts, on %s', (kind) => {
  let { ctx, acc, id } = {} as ServiceSuite;
  let other: number;
  beforeAll(async () => {
    ({ ctx, acc, id } = await openServiceSuite(kind));
    other = acc.items['otra.test'];
    // otra.test's zone exists before its keys (its DMARC came with the zone): its DKIM job publishes into it, as a change of the zone.
    await api(ctx, acc, 'admin', `/service/${other}/dns/list/`);
    await ctx.app.runtime.outbox.drain();
  });
  afterAll(() => ctx.close());

  const records = async (item = id) =>
    ((await api<{ dnss: DnsRecord[] }>(ctx, acc, 'admin', `/service/${item}/dns/list/`)).body.data.dnss ?? []).map((r) => ({
      id: r.id,
      zona: r.zona,
      type: r.type,
      value: r.value,
    }));
  const keys = async (item = id) => (await api<{ keys: DkimKey[] }>(ctx, acc, 'admin', `/service/${item}/dkim/`)).body.data.keys;
  const dkimValue = (key: DkimKey) => key.record.strings.join('');
  /** What the local DNS driver serves: the RRsets it last applied. */
  const served = async (item = id) => {
    const zone = await ctx.store.selectFrom('dns_zone').select('served').where('item_id', '=', item).executeTakeFirstOrThrow();
    return JSON.parse(zone.served ?? '[]') as { name: string; type: string; contents: string[] }[];
  };
  const servedNames = async (item = id) => (await served(item)).map((s) => `${s.name} ${s.type}`);
  const history = async (item = id) =>
    ctx.store.selectFrom('dns_change').select(['kind', 'by', 'after', 'before']).where('item_id', '=', item).orderBy('id').execute();

  it('publishes the domain’s DKIM record and the provider’s DMARC without anyone opening the DNS screen, keeping the template’s SPF', async () => {
    const [key] = await keys();
    // Served already: the DKIM job made the hosting item's zone with the mail records in it.
    expect(await servedNames()).toEqual(
      expect.arrayContaining([`${key!.selector}._domainkey.tienda.test. TXT`, '_dmarc.tienda.test. TXT']),
    );
    const list = await records();
    expect(list).toContainEqual(expect.objectContaining({ zona: `${key!.selector}._domainkey`, type: 'TXT', value: dkimValue(key!) }));
    expect(list).toContainEqual(expect.objectContaining({ zona: '_dmarc', type: 'TXT', value: 'v=DMARC1; p=none' }));
    expect(list.filter((r) => r.type === 'TXT' && r.value.startsWith('v=spf1'))).toEqual([
      expect.objectContaining({ value: 'v=spf1 a mx ~all' }),
    ]);
    await ctx.app.runtime.outbox.drain();
    const dkim = (await served()).find((s) => s.name === `${key!.selector}._domainkey.tienda.test.`);
    // Served as character-strings of at most 255 bytes: an RSA 2048 record takes two.
    expect(dkim?.contents).toHaveLength(1);
    expect(dkim!.contents[0]!.match(/"[^"]*"/g)!.map((s) => s.length - 2 <= 255)).toEqual([true, true]);
    expect(await servedNames()).toContain('_dmarc.tienda.test. TXT');
  });

  it('publishes into a zone that existed before the keys, as one change of the zone’s history by the mail service', async () => {
    const [key] = await keys(other);
    expect(await records(other)).toContainEqual(expect.objectContaining({ zona: `${key!.selector}._domainkey`, value: dkimValue(key!) }));
    const mail = (await history(other)).filter((h) => h.kind === 'mail');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.by).toBe('Atalaya');
    expect(JSON.parse(mail[0]!.after).map((r: { zona: string }) => r.zona)).toEqual([`${key!.selector}._domainkey`]);
    expect(await servedNames(other)).toContain(`${key!.selector}._domainkey.otra.test. TXT`);
  });

  it('publishes a rotated key with the rotation, signs with it only once the zone serves it, and removes the old record after its retirement', async () => {
    const [old] = await keys();
    const rotated = await api<{ keys: DkimKey[] }>(ctx, acc, 'admin', `/service/${id}/dkim/rotate/`, {});
    const fresh = rotated.body.data.keys[1]!;
    // In the zone with the rotation itself, before any job ran.
    expect(await records()).toContainEqual(expect.objectContaining({ zona: `${fresh.selector}._domainkey`, value: dkimValue(fresh) }));
    expect((await history()).at(-1)).toMatchObject({ kind: 'mail', before: '[]' });
    // Its time has come but the zone has not applied it yet: it keeps waiting.
    await ctx.store.updateTable('mail_dkim').set({ next_at: 1 }).where('item_id', '=', id).where('state', '=', 'published').execute();
    expect(await ctx.app.runtime.scheduler.runNow('dkim-rotation')).toBe(true);
    expect((await keys()).map((k) => k.state)).toEqual(['signing', 'published']);
    await ctx.app.runtime.outbox.drain();
    expect(await servedNames()).toContain(`${fresh.selector}._domainkey.tienda.test. TXT`);
    expect(await ctx.app.runtime.scheduler.runNow('dkim-rotation')).toBe(true);
    expect((await keys()).map((k) => k.state)).toEqual(['retired', 'signing']);
    // Retired: still published for mail on its way.
    expect(await servedNames()).toContain(`${old!.selector}._domainkey.tienda.test. TXT`);
    await ctx.store.updateTable('mail_dkim').set({ next_at: 1 }).where('item_id', '=', id).where('state', '=', 'retired').execute();
    expect(await ctx.app.runtime.scheduler.runNow('dkim-rotation')).toBe(true);
    await ctx.app.runtime.outbox.drain();
    expect((await records()).filter((r) => r.zona.endsWith('._domainkey')).map((r) => r.zona)).toEqual([`${fresh.selector}._domainkey`]);
    expect(await servedNames()).not.toContain(`${old!.selector}._domainkey.tienda.test. TXT`);
    const last = (await history()).at(-1)!;
    expect(last.kind).toBe('mail');
    expect(JSON.parse(last.before)).toEqual([expect.objectContaining({ zona: `${old!.selector}._domainkey` })]);
    expect(last.after).toBe('[]');
  });

  it('keeps a customer’s own DMARC and a DKIM record of another sender through a rotation', async () => {
    const dmarc = (await records()).find((r) => r.zona === '_dmarc')!;
    expect((await api(ctx, acc, 'admin', `/service/${id}/dns/${dmarc.id}/save/`, { value: 'v=DMARC1; p=reject', ttl: '0' })).status).toBe(
      200,
    );
    const theirs = { zona: 'google._domainkey', type: 'TXT', value: 'v=DKIM1; k=rsa; p=MFwwDQYJKoZIhvcNAQEBBQADSwAwSAJBAL' };
    expect((await api(ctx, acc, 'admin', `/service/${id}/dns/create/`, { ...theirs, ttl: '0' })).status).toBe(200);
    await api(ctx, acc, 'admin', `/service/${id}/dkim/rotate/`, {});
    const after = await records();
    expect(after.filter((r) => r.zona === '_dmarc').map((r) => r.value)).toEqual(['v=DMARC1; p=reject']);
    expect(after).toContainEqual(expect.objectContaining(theirs));
    await ctx.app.runtime.outbox.drain();
  });

  it('puts the mail records back with the zone’s defaults when the customer restores them', async () => {
    expect((await api(ctx, acc, 'admin', `/service/${id}/dns/restore/`)).status).toBe(200);
    const list = await records();
    for (const key of await keys())
      expect(list).toContainEqual(expect.objectContaining({ zona: `${key.selector}._domainkey`, value: dkimValue(key) }));
    expect(list.filter((r) => r.zona === '_dmarc').map((r) => r.value)).toEqual(['v=DMARC1; p=none']);
    expect(list.some((r) => r.zona === 'google._domainkey')).toBe(false);
  });

  it('publishes nothing in the zone of a hosting item without a mail service', async () => {
    const parked = acc.items['aparcado.test'];
    await api(ctx, acc, 'admin', `/service/${parked}/dns/list/`);
    expect((await records(parked)).filter((r) => r.zona.includes('_domainkey') || r.zona === '_dmarc')).toEqual([]);
  });

  it('hides the mail health from users without the mail service', async () => {
    expect((await api(ctx, acc, 'nothing', `/service/${id}/mail/health/`)).status).toBe(404);
    expect((await api(ctx, acc, 'ftponly', `/service/${id}/mail/health/`)).status).toBe(404);
  });
});

it('stops the start on a provider default that is not the record it names', () => {
  expect(() => loadConfig({}, { 'hosting.mailRecords.spf': 'include:_spf.example.net ~all' })).toThrow(
    /hosting\.mailRecords\.spf: an SPF record/,
  );
  expect(() => loadConfig({}, { 'hosting.mailRecords.dmarc': 'p=reject' })).toThrow(/hosting\.mailRecords\.dmarc/);
  expect(() => loadConfig({}, { 'hosting.mailRecords.mtaSts': 'on' })).toThrow(/hosting\.mailRecords\.mtaSts/);
  expect(() => loadConfig({}, { 'hosting.mailRecords.resolver': '127.0.0.1:53 ; rm' })).toThrow(/hosting\.mailRecords\.resolver/);
  expect(loadConfig({}, { 'hosting.mailRecords.spf': 'v=spf1 mx include:_spf.{mailHost} -all' }).hosting.mailRecords.spf).toBe(
    'v=spf1 mx include:_spf.{mailHost} -all',
  );
});
