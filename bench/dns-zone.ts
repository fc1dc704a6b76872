/**
 * docs/decisions/025-paged-lists.md: a zone of 50,000 records costs one page. Fills one demo
 * zone of the running server with N records (multi-row inserts straight into its store), then
 * times, from this process over loopback, the calls the DNS screen makes: the first page, a later
 * page, one type, a text filter, and the streamed BIND export, each with its bytes.
 *
 * Alone: `node bench/dns-zone.ts` starts the server as `npm start` does, on a fresh SQLite store,
 * or on PostgreSQL when BENCH_PG holds an admin URL.
 */
import { DNS_TYPES } from '@atalaya/contract';
import { sql } from 'kysely';
import { loadConfig } from '../apps/server/src/config/config.ts';
import { DEMO_REALM } from '../apps/server/src/demo/seed.ts';
import { openStore } from '../apps/server/src/store/db.ts';
import { freshDatabase } from '../apps/server/test/pg.ts';
import { demoDomainRead } from './domain.ts';
import { benchDataDir, startAtalaya } from './processes.ts';
import type { BenchContext } from './scenarios.ts';

const RECORDS = Number(process.env.BENCH_DNS_RECORDS ?? 50_000);
const CHUNK = 1_000;

/** N generated records of every type in the zone of `itemId` (its template records stay). */
async function fillZone(ctx: BenchContext, itemId: number, count: number) {
  const now = Math.floor(Date.now() / 1000);
  for (let from = 0; from < count; from += CHUNK) {
    const rows = Array.from({ length: Math.min(CHUNK, count - from) }, (_, k) => {
      const i = from + k;
      const type = DNS_TYPES[i % DNS_TYPES.length] === 'MX' ? 'MX' : i % 2 ? 'TXT' : 'A';
      return {
        item_id: itemId,
        zona: `host-${i}`,
        type,
        ttl: 3600,
        priority: type === 'MX' ? 10 : null,
        value:
          type === 'A'
            ? `192.0.${i % 256}.${(i * 7) % 256}`
            : type === 'MX'
              ? `mx${i}.example.net.`
              : `"v=spf1 include:_spf${i}.example.net ~all"`,
        dynamic_value: null,
        created_at: now,
      };
    });
    await ctx.store.insertInto('dns_record').values(rows).execute();
  }
  // PostgreSQL plans from statistics that autovacuum refreshes within a minute of such a change;
  // measured before that, every plan would be a guess from an empty table.
  if (ctx.store.kind === 'postgres') await sql`ANALYZE dns_record`.execute(ctx.store);
}

export async function dnsZoneScenario(ctx: BenchContext) {
  const { headers } = await demoDomainRead(ctx.store);
  const item = await ctx.store.selectFrom('item').select('id').where('reference', '=', DEMO_REALM).executeTakeFirstOrThrow();
  const list = `${ctx.base}/p247/service/${item.id}/dns/list/`;
  // The first visit makes the zone from the provider's template.
  if (!(await fetch(list, { headers })).ok) throw new Error('the demo zone did not open');
  const started = performance.now();
  await fillZone(ctx, item.id, RECORDS);
  console.log(
    `\nA DNS zone of ${RECORDS.toLocaleString('en')} records (filled in ${((performance.now() - started) / 1000).toFixed(1)} s); time seen from another process, median of 7:`,
  );
  const calls = [
    `${list}?page=1`,
    `${list}?page=2500`,
    `${list}?page=1&type=MX`,
    `${list}?page=1&filter=${encodeURIComponent('host-4999')}`,
    `${ctx.base}/p247/service/${item.id}/dns/export/file/`,
  ];
  for (const url of calls) {
    const times: number[] = [];
    let bytes = 0;
    let status = 0;
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      const response = await fetch(url, { headers });
      bytes = (await response.arrayBuffer()).byteLength;
      times.push(performance.now() - t);
      status = response.status;
    }
    times.sort((a, b) => a - b);
    const size = bytes < 10_240 ? `${bytes} B` : `${(bytes / 1024).toFixed(0)} KB`;
    console.log(`  GET ${url.slice(ctx.base.length).padEnd(58)} ${times[3].toFixed(1).padStart(7)} ms  ${size.padStart(8)}  (${status})`);
  }
}

if (import.meta.main) {
  const pg = process.env.BENCH_PG ? await freshDatabase(process.env.BENCH_PG, 'atalaya_bench') : null;
  const data = benchDataDir();
  const env = { DATABASE_URL: pg?.url ?? '' };
  await (await startAtalaya(data.dir, env)).stop(); // the first start migrates and seeds the demo realm
  const server = await startAtalaya(data.dir, env);
  const store = await openStore(loadConfig({ ATALAYA_DATA_DIR: data.dir, ...env }));
  try {
    const unused = { rps: 0, p50: 0, p99: 0, errors: 0, total: 0 };
    await dnsZoneScenario({ base: `http://127.0.0.1:${server.port}`, store, baseline: unused, seconds: 0 });
  } finally {
    await store.destroy();
    await server.stop();
    data.dispose();
    await pg?.drop();
  }
}
