import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DnsRecord } from '@atalaya/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEW_MATCHES, matchingRecords } from '../../src/modules/dns/page.ts';
import { send } from '../fixtures.ts';
import { describeStores } from '../stores.ts';
import { type DnsTest, openDnsTest } from './helpers.ts';
import { dig, PDNS_MISSING, type PowerDns, startPowerDns } from './powerdns-harness.ts';

const HOSTS = 45;

describeStores('the DNS record list paged on the server on %s', (kind) => {
  let t: DnsTest;
  let all: DnsRecord[];
  beforeAll(async () => {
    t = await openDnsTest(kind);
    await t.list();
    for (let i = 0; i < HOSTS; i++) {
      const zona = `host${String(i).padStart(2, '0')}`;
      expect(
        (await t.create({ type: i % 3 === 0 ? 'TXT' : 'A', zona, value: i % 3 === 0 ? `Texto ${zona}` : `192.0.2.${i}` })).status,
      ).toBe(200);
    }
    all = await t.list();
  });
  afterAll(() => t.ctx.close());

  const page = async (query: string) => (await t.get(`list/?${query}`)).body.data;

  it('answers the first page of 10 in name order with the total, each record as the unpaged list shows it', async () => {
    const first = await page('page=1');
    expect(first).toMatchObject({ total: all.length, page: 1, pageSize: 10 });
    expect(first.dnss).toEqual(all.slice(0, 10));
  });

  it('answers the last page with what is left, and refuses the page after it under the page field', async () => {
    const last = Math.ceil(all.length / 10);
    expect((await page(`page=${last}`)).dnss).toEqual(all.slice((last - 1) * 10));
    const past = await t.get(`list/?page=${last + 1}`);
    expect(past.status).toBe(400);
    expect(past.body.system.inputs).toEqual(['page']);
  });

  it('filters on name, type and value, case-insensitive, every word, with its own total', async () => {
    const found = await page(`page=1&filter=${encodeURIComponent('HOST1 texto')}`);
    expect(found.dnss.map((r: DnsRecord) => r.zona)).toEqual(['host12', 'host15', 'host18']);
    expect(found.total).toBe(3);
    expect((await page('page=1&filter=192.0.2.44')).dnss.map((r: DnsRecord) => r.zona)).toEqual(['host44']);
    // The zone's apply state comes with every answer (its own tests: retry.test.ts).
    const nothing = { dnss: [], total: 0, page: 1, pageSize: 10, state: expect.any(String), job: expect.any(Number) };
    expect(await page('page=1&filter=nada')).toEqual(nothing);
  });

  it('filters on the priority and on the template expression a record was built from', async () => {
    const templated = all.filter((r) => r.dynamicValue?.includes('{zone}'));
    expect(templated.length).toBeGreaterThan(0);
    expect((await page(`page=1&filter=${encodeURIComponent('{zone}')}`)).total).toBe(templated.length);
    const mx = all.find((r) => r.type === 'MX')!;
    const byPriority = await page(`page=1&type=MX&filter=${mx.priority}`);
    expect(byPriority.dnss.map((r: DnsRecord) => r.id)).toEqual([mx.id]);
    expect((await page('page=1&type=MX&filter=77')).total).toBe(0);
  });

  it('keeps one type, and refuses an unknown one', async () => {
    const txt = await page('page=1&type=TXT');
    expect(txt.total).toBe(all.filter((r) => r.type === 'TXT').length);
    expect(txt.dnss.every((r: DnsRecord) => r.type === 'TXT')).toBe(true);
    expect((await t.get('list/?page=1&type=XYZ')).body.system.inputs).toEqual(['type']);
  });

  it('streams the BIND export as a file with the lines of the one-text export', async () => {
    const file = await send(t.ctx.app, 'GET', `/service/${t.id}/dns/export/file/`, t.w);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('text/dns; charset=utf-8');
    expect(file.headers['content-disposition']).toBe('attachment; filename="zona.es.zone"');
    const text: string = (await t.get('export/')).body.data.text;
    expect(file.raw.split('\n').slice(0, 3)).toEqual(text.split('\n').slice(0, 3));
    expect(file.raw.split('\n').sort()).toEqual(text.split('\n').sort());
  });
});

describeStores('a zone with more matches than a filtered page is cut from on %s', (kind) => {
  // FEW_MATCHES + 5 records named bulk-0000…: a filter on all of them walks the zone in order, a
  // filter on a hundred of them is cut from the search index's matches (two paths, one order).
  const BULK = FEW_MATCHES + 5;
  let t: DnsTest;
  const names = (data: { dnss: DnsRecord[] }) => data.dnss.map((r) => r.zona);
  const bulk = (i: number) => `bulk-${String(i).padStart(4, '0')}`;
  beforeAll(async () => {
    t = await openDnsTest(kind, {}, 'grande.es');
    await t.list();
    const now = Math.floor(Date.now() / 1000);
    const rows = Array.from({ length: BULK }, (_, i) => ({
      item_id: t.id,
      zona: bulk(BULK - 1 - i), // inserted backwards: the order must come from the query, not the rows
      type: 'A',
      ttl: 3600,
      priority: null,
      value: `198.51.100.${i % 250}`,
      dynamic_value: null,
      created_at: now,
    }));
    for (let from = 0; from < BULK; from += 500)
      await t.ctx.store
        .insertInto('dns_record')
        .values(rows.slice(from, from + 500))
        .execute();
  });
  afterAll(() => t.ctx.close());

  const page = async (query: string) => (await t.get(`list/?${query}`)).body.data;

  it('pages a filter matching more records than that in name order, with its total, to the last page', async () => {
    const first = await page('page=1&filter=BULK');
    expect(first.total).toBe(BULK);
    expect(names(first)).toEqual(Array.from({ length: 10 }, (_, i) => bulk(i)));
    const last = Math.ceil(BULK / 10);
    expect(names(await page(`page=${last}&filter=bulk`))).toEqual(
      Array.from({ length: BULK % 10 || 10 }, (_, i) => bulk((last - 1) * 10 + i)),
    );
  });

  it('pages a filter matching fewer records in the same name order', async () => {
    const some = await page('page=2&filter=bulk-01');
    expect(some.total).toBe(100);
    expect(names(some)).toEqual(Array.from({ length: 10 }, (_, i) => bulk(110 + i)));
  });

  it('streams the export of a zone larger than one read batch with every record once, the lines of the one-text export', async () => {
    const file = await send(t.ctx.app, 'GET', `/service/${t.id}/dns/export/file/`, t.w);
    const text: string = (await t.get('export/')).body.data.text;
    const bulkLines = file.raw.split('\n').filter((line) => line.startsWith('bulk-'));
    expect(bulkLines).toEqual(Array.from({ length: BULK }, (_, i) => expect.stringMatching(`^${bulk(i)}\\.`)));
    expect(file.raw.split('\n').sort()).toEqual(text.split('\n').sort());
  });

  it("counts a filter's matches from the search index's copy of the text, not from the records", async () => {
    if (kind === 'postgres') {
      const index = await sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes WHERE indexname = 'dns_record_search'`.execute(
        t.ctx.store,
      );
      expect(index.rows[0]?.indexdef).toContain('gin_trgm_ops');
      return;
    }
    const count = matchingRecords(t.ctx.store, t.id, 'ALL', ['bulk']).select((eb) => eb.fn.countAll<number>().as('n'));
    const plan = await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${sql.raw(count.compile().sql)}`.execute(t.ctx.store);
    expect(plan.rows.map((r) => r.detail)).toEqual([expect.stringContaining('COVERING INDEX dns_record_search')]);
  });
});

/** A pass-through to PowerDNS's API that notes each request's method, path and body. */
async function recordingProxy(target: string) {
  const seen: { method: string; path: string; body: string }[] = [];
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method!, path: req.url!, body: body.toString() });
      const out = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise((r) => server.close(r)) };
}

describe.skipIf(PDNS_MISSING)('one record changed in a big zone against a real PowerDNS', () => {
  let pdns: PowerDns;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let t: DnsTest;
  beforeAll(async () => {
    pdns = await startPowerDns();
    proxy = await recordingProxy(pdns.apiUrl);
    t = await openDnsTest('sqlite', { 'drivers.dns': { ...pdns.driverConfig, url: proxy.url } });
  }, 30000);
  afterAll(async () => {
    await t?.ctx.close();
    await proxy?.close();
    await pdns?.stop();
  });

  it('reaches PowerDNS as one PATCH of that RRset alone, not the whole zone', async () => {
    await t.list();
    for (let i = 0; i < 30; i++) await t.create({ type: 'A', zona: `h${i}`, value: `198.51.100.${i}` });
    await t.ctx.app.runtime.outbox.drain();
    const target = (await t.list()).find((r) => r.zona === 'h7')!;
    proxy.seen.length = 0;
    await t.post(`${target.id}/save/`, { value: '203.0.113.7', ttl: 600 });
    await t.ctx.app.runtime.outbox.drain();
    expect(proxy.seen.map((s) => s.method)).toEqual(['PATCH']);
    expect(JSON.parse(proxy.seen[0].body)).toEqual({
      rrsets: [{ name: 'h7.zona.es.', type: 'A', ttl: 600, changetype: 'REPLACE', records: [{ content: '203.0.113.7', disabled: false }] }],
    });
    expect((await dig(pdns.dnsPort, 'h7.zona.es', 'A'))[0]?.rdata).toBe('203.0.113.7');
    proxy.seen.length = 0;
    await t.get(`${target.id}/delete/`);
    await t.ctx.app.runtime.outbox.drain();
    expect(JSON.parse(proxy.seen[0].body)).toEqual({ rrsets: [{ name: 'h7.zona.es.', type: 'A', changetype: 'DELETE' }] });
    expect(await dig(pdns.dnsPort, 'h7.zona.es', 'A')).toEqual([]);
  });
});
