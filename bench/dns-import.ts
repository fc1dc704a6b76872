/**
 * Decision 054: what a zone import's preview costs the rest of the server. Starts the panel as
 * `npm start` does (SQLite, demo realm), opens the demo zone and previews a master file of about
 * 240 KB (the largest the panel took before decision 054), timed from this process over loopback:
 * the preview alone (median of 7), then one and four previews at once while a cheap call
 * (`GET /p247/config/get/`) is made every 20 ms, whose slowest answer is how long the server
 * answered nobody. The plan limit (ZONE_IMPORT_LIMITS.plansPerMinute per user) is reset between previews: it is not
 * what is measured.
 *
 * `node bench/dns-import.ts`; `BENCH_ROOT=<checkout>` runs another checkout's server (a before),
 * `BENCH_IMPORT_KB` the file's size.
 */
import { loadavg } from 'node:os';
import { loadConfig } from '../apps/server/src/config/config.ts';
import { DEMO_REALM } from '../apps/server/src/demo/seed.ts';
import { openStore, type Store } from '../apps/server/src/store/db.ts';
import { demoDomainRead } from './domain.ts';
import { benchDataDir, startAtalaya } from './processes.ts';

const KB = Number(process.env.BENCH_IMPORT_KB ?? 240);

/** A master file of about `kb` KB: one RRset a line, A, AAAA, MX and TXT in turn. */
function masterFile(kb: number): { text: string; rrsets: number } {
  const lines = ['$TTL 3600', '@ IN NS ns1.example.net.', '@ IN NS ns2.example.net.'];
  let size = 0;
  let i = 0;
  for (; size < kb * 1000; i++) {
    const line = [
      `h${i} IN A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      `h${i} IN AAAA 2001:db8::${i.toString(16)}`,
      `h${i} IN MX 10 mx${i}.example.net.`,
      `h${i} IN TXT "v=spf1 include:_spf${i}.example.net ~all"`,
    ][i % 4];
    lines.push(line);
    size += line.length + 1;
  }
  return { text: `${lines.join('\n')}\n`, rrsets: i };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => `${value.toFixed(0).padStart(6)} ms`;

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/** While `work` runs, a cheap GET every 20 ms: the median and the slowest of their answer times. */
async function whileProbing(base: string, work: () => Promise<number[]>) {
  const times: number[] = [];
  let running = true;
  const probe = (async () => {
    while (running) {
      const t = await timed(() => fetch(`${base}/p247/config/get/`).then((r) => r.arrayBuffer()));
      times.push(t.ms);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const statuses = await timed(work);
  running = false;
  await probe;
  return { wall: statuses.ms, statuses: statuses.value, probeP50: median(times), blocked: Math.max(...times) };
}

export async function dnsImportScenario(base: string, store: Store) {
  const { headers } = await demoDomainRead(store);
  const item = await store.selectFrom('item').select('id').where('reference', '=', DEMO_REALM).executeTakeFirstOrThrow();
  const zone = `${base}/p247/service/${item.id}/dns`;
  if (!(await fetch(`${zone}/list/`, { headers })).ok) throw new Error('the demo zone did not open');
  const file = masterFile(KB);
  const body = JSON.stringify({ zone: file.text });
  const resetLimit = () => store.deleteFrom('counter').where('key', 'like', 'dnsplan:%').execute();
  const preview = async () => {
    await resetLimit();
    const response = await fetch(`${zone}/import/preview/`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
    });
    await response.arrayBuffer();
    return response.status;
  };
  console.log(
    `\nA zone import preview of ${(file.text.length / 1000).toFixed(0)} KB (${file.rrsets.toLocaleString('en')} RRsets) on SQLite, load ${loadavg()[0].toFixed(2)}:`,
  );
  await preview(); // warm-up
  const alone: number[] = [];
  let status = 0;
  for (let i = 0; i < 7; i++) {
    const t = await timed(preview);
    alone.push(t.ms);
    status = t.value;
  }
  console.log(`  preview alone, median of 7                    ${ms(median(alone))}  (${status})`);
  for (const parallel of [1, 4]) {
    const run = await whileProbing(base, () => Promise.all(Array.from({ length: parallel }, preview)));
    console.log(
      `  ${parallel} preview(s) at once: all answered in ${ms(run.wall)}  (${run.statuses.join(', ')}); ` +
        `GET /p247/config/get/ meanwhile p50 ${ms(run.probeP50).trim()}, slowest (blocked) ${ms(run.blocked).trim()}`,
    );
  }
  console.log(`  load average after: ${loadavg()[0].toFixed(2)} (1 min) on 2 cores`);
}

if (import.meta.main) {
  const data = benchDataDir();
  const options = process.env.BENCH_ROOT ? { root: process.env.BENCH_ROOT } : {};
  await (await startAtalaya(data.dir, {}, options)).stop(); // the first start migrates and seeds the demo realm
  const server = await startAtalaya(data.dir, {}, options);
  const store = await openStore(loadConfig({ ATALAYA_DATA_DIR: data.dir, DATABASE_URL: '' }));
  try {
    await dnsImportScenario(`http://127.0.0.1:${server.port}`, store);
  } finally {
    await store.destroy();
    await server.stop();
    data.dispose();
  }
}
