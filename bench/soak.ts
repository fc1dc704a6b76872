/**
 * Memory under load (docs/decisions/060-lazy-areas-and-bounded-memory.md): the panel started as
 * `npm start` starts it, then BENCH_SOAK_SECONDS (default 120) of mixed signed-in reads from 20
 * connections at about BENCH_SOAK_RATE requests/s (default 3,400: the domain page, user/info, the
 * permission list, the DNS list), with a DNS record written every 2 s; then BENCH_SOAK_IDLE_SECONDS
 * (default 30) with nothing. The server's RSS is read before, right after the load and after the
 * idle time, and sampled every 10 s in between. Every cache that grows with requests, sessions or
 * records is bounded (decision 060 lists them), and once requests stop the server gives back what
 * the load made V8 take (decision 065, after 10–20 s: the idle time must be longer): so the budgets
 * are the RSS right after the load, and what the load leaves after the idle time over the RSS
 * before it, each judged against the idle server's own spread (`memoryVerdict`).
 *
 * BENCH_SOAK_SNAPSHOTS=<dir> also writes a heap snapshot of the server before the load and after
 * the idle time there (`--heapsnapshot-signal`), to compare retained sizes by constructor.
 *
 * BENCH_SOAK_SMAPS=<dir> keeps the server's /proc/<pid>/smaps at each reading, to diff its
 * mappings; BENCH_SOAK_INSPECT=<port> opens its inspector there, for memoryUsage() and V8's counts
 * in the samples and a low-memory collection at the end (bench/memory-probe.ts).
 *
 * Alone: `node bench/soak.ts`; in `npm run bench` after the calls. A budget missed by more than the
 * noise sets the exit code.
 */
import { readdirSync } from 'node:fs';
import { loadConfig } from '../apps/server/src/config/config.ts';
import { DEMO_REALM } from '../apps/server/src/demo/seed.ts';
import { openStore } from '../apps/server/src/store/db.ts';
import { demoDomainRead } from './domain.ts';
import { type LoadResult, load } from './load.ts';
import { memoryProbe, sampleLine } from './memory-probe.ts';
import { benchDataDir, type Running, startAtalaya } from './processes.ts';

const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 120);
const IDLE_SECONDS = Number(process.env.BENCH_SOAK_IDLE_SECONDS ?? 30);
const RATE = Number(process.env.BENCH_SOAK_RATE ?? 3400);
const SNAPSHOTS = process.env.BENCH_SOAK_SNAPSHOTS;
/** A dir for copies of the server's /proc/<pid>/smaps before the load, after it and after the idle time. */
const SMAPS = process.env.BENCH_SOAK_SMAPS;
/** A loopback port for the server's inspector: the timeline then shows process.memoryUsage() too. */
const INSPECT = process.env.BENCH_SOAK_INSPECT ? Number(process.env.BENCH_SOAK_INSPECT) : undefined;
/**
 * RSS budgets in MB (docs/design.md#budgets): right after the load; and what the load leaves once
 * the server has idled, over its own RSS before the load (a start's RSS moves by ~10 MB from one
 * start to the next, decision 065), where V8 has given back what the load made it take.
 */
export const SOAK_BUDGET = { afterLoad: 200, leftAfterIdle: 20 };

/** A budget's verdict: met, missed within the noise (no verdict), or missed by more than it (fails). */
export function memoryVerdict(value: number, budget: number, noise: number) {
  if (value < budget) return { failed: false, note: '' };
  if (value < budget + noise) return { failed: false, note: `, NOT met, within the noise (${noise.toFixed(0)} MB)` };
  return { failed: true, note: `, MISSED by more than the noise (${noise.toFixed(0)} MB)` };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function snapshot(server: Running, name: string) {
  if (!SNAPSHOTS) return;
  const before = new Set(readdirSync(SNAPSHOTS));
  process.kill(server.pid, 'SIGUSR2');
  for (let i = 0; i < 600; i++) {
    await sleep(500);
    const written = readdirSync(SNAPSHOTS).filter((file) => !before.has(file) && file.endsWith('.heapsnapshot'));
    // The file appears at once and is written for seconds: its size stops moving when it is done.
    if (written.length > 0) {
      await sleep(5000);
      console.log(`  heap snapshot ${name}: ${SNAPSHOTS}/${written[0]}`);
      return;
    }
  }
}

/** The soak on a server of its own; true when both budgets were met. */
export async function soak(): Promise<boolean> {
  const data = benchDataDir();
  const flags = [
    ...(SNAPSHOTS ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${SNAPSHOTS}`] : []),
    ...(INSPECT ? [`--inspect=127.0.0.1:${INSPECT}`] : []),
  ];
  await (await startAtalaya(data.dir)).stop();
  const server = await startAtalaya(data.dir, {}, { flags });
  const store = await openStore(loadConfig({ ATALAYA_DATA_DIR: data.dir, DATABASE_URL: '' }));
  try {
    const { row, headers } = await demoDomainRead(store);
    const item = await store.selectFrom('item').select('id').where('reference', '=', DEMO_REALM).executeTakeFirstOrThrow();
    const base = `http://127.0.0.1:${server.port}/p247`;
    // The first visit makes the zone from the provider's template.
    if (!(await fetch(`${base}/service/${item.id}/dns/list/`, { headers })).ok) throw new Error('the demo zone did not open');
    // The idle server's RSS over 5 s: its spread is the noise a memory reading carries in this run.
    const settling: number[] = [];
    for (let second = 0; second < 5; second++) {
      await sleep(1000);
      settling.push(server.rssMb());
    }
    const idle = settling.at(-1)!;
    const noise = Math.max(...settling) - Math.min(...settling);
    await snapshot(server, 'before the load');
    const probe = memoryProbe(server.pid, INSPECT);
    await probe.sample();
    if (SMAPS) probe.smaps(SMAPS, 'before');
    const reads: { url: string; method: 'GET' | 'POST'; connections: number }[] = [
      { url: `${base}/domain/${row.itemId}/`, method: 'GET', connections: 8 },
      { url: `${base}/user/info/`, method: 'POST', connections: 4 },
      { url: `${base}/permission/list/`, method: 'GET', connections: 4 },
      { url: `${base}/service/${item.id}/dns/list/?page=1`, method: 'GET', connections: 4 },
    ];
    let writes = 0;
    let failedWrites = 0;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        const response = await fetch(`${base}/service/${item.id}/dns/create/`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'TXT', zona: `soak-${writes}`, value: `soak write ${writes} at ${Date.now()}` }),
        });
        await response.arrayBuffer();
        writes++;
        if (!response.ok) failedWrites++;
        await sleep(2000);
      }
    })();
    const results: LoadResult[] = await Promise.all(
      reads.map((read) =>
        load(read.url, {
          method: read.method,
          headers,
          seconds: SOAK_SECONDS,
          connections: read.connections,
          rate: Math.round((RATE * read.connections) / 20),
        }),
      ),
    );
    writing = false;
    await writer;
    const afterLoad = server.rssMb();
    await probe.sample();
    if (SMAPS) probe.smaps(SMAPS, 'after-load');
    await sleep(IDLE_SECONDS * 1000);
    const afterIdle = server.rssMb();
    await probe.sample();
    probe.stop();
    if (SMAPS) probe.smaps(SMAPS, 'after-idle');
    if (INSPECT) {
      // What a low-memory GC gives back is V8's; what stays is held by malloc or live.
      await probe.lowMemoryGc();
      await sleep(2000);
      await probe.sample();
      if (SMAPS) probe.smaps(SMAPS, 'after-gc');
    }
    await snapshot(server, 'after the idle time');
    const total = results.reduce((sum, result) => sum + result.total, 0);
    const errors = results.reduce((sum, result) => sum + result.errors, 0);
    const loadVerdict = memoryVerdict(afterLoad, SOAK_BUDGET.afterLoad, noise);
    const idleVerdict = memoryVerdict(afterIdle - idle, SOAK_BUDGET.leftAfterIdle, noise);
    const met = !loadVerdict.failed && !idleVerdict.failed && errors === 0 && failedWrites === 0;
    console.log(
      `\nSoak: ${SOAK_SECONDS} s of mixed signed-in reads (20 connections, ${(total / SOAK_SECONDS).toFixed(0)} req/s of ${RATE} asked, ${errors} errors) and a DNS record written every 2 s (${writes} writes, ${failedWrites} failed), SQLite:`,
    );
    for (const [index, read] of reads.entries()) {
      const result = results[index];
      console.log(
        `  ${read.method} ${read.url.slice(base.length).padEnd(34)} ${(result.total / SOAK_SECONDS).toFixed(0).padStart(6)} req/s  p99 ${result.p99} ms`,
      );
    }
    console.log("  memory over time (from the load's start):");
    for (const sample of probe.samples) console.log(sampleLine(sample));
    console.log(`  RSS before the load ${idle.toFixed(0)} MB`);
    console.log(`  RSS right after the load ${afterLoad.toFixed(0)} MB (budget < ${SOAK_BUDGET.afterLoad} MB${loadVerdict.note})`);
    console.log(
      `  RSS after ${IDLE_SECONDS} s idle ${afterIdle.toFixed(0)} MB, ${(afterIdle - idle).toFixed(0)} MB over the RSS before the load (budget < ${SOAK_BUDGET.leftAfterIdle} MB${idleVerdict.note})`,
    );
    console.log(`  soak budget: ${met ? 'met' : 'MISSED'}`);
    return met;
  } finally {
    await store.destroy();
    await server.stop();
    data.dispose();
  }
}

if (import.meta.main) {
  if (!(await soak())) process.exitCode = 1;
}
