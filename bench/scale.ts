/**
 * Several processes (docs/decisions/014-scale-out.md): the signed-in domain read with one server
 * process against ATALAYA_WORKERS=2, and the outbox's throughput (jobs/s of probe jobs) with one
 * and two processes, on SQLite and, when BENCH_PG holds an admin URL, on PostgreSQL. Each run
 * starts the server as `npm start` does (with the probe's job kind), on a fresh store. Runs alone with `node bench/scale.ts`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../apps/server/src/config/config.ts';
import { openStore, type Store } from '../apps/server/src/store/db.ts';
import { freshDatabase } from '../apps/server/test/pg.ts';
import { PROBE_JOB } from '../apps/server/test/scale/probe.ts';
import { demoDomainRead } from './domain.ts';
import { type LoadResult, load, report } from './load.ts';
import { startEnv, startFlags } from './processes.ts';

// The server with the outbox probe's job kind, which the product does not register.
const SERVER = path.resolve(import.meta.dirname, '../apps/server/test/scale/probe-server.ts');
const JOBS = 2000;
const ITEMS = 100;

interface Started {
  port: number;
  store: Store;
  stop(): Promise<void>;
}

async function startServer(workers: number, databaseUrl: string | undefined): Promise<Started> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atalaya-bench-scale-'));
  const env = { ATALAYA_DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', ATALAYA_DEMO_PASSWORD: 'bench-password-1' };
  const child: ChildProcess = spawn(process.execPath, [...startFlags(), SERVER], {
    env: { ...process.env, ...startEnv(), ...env, PORT: '0', HOST: '127.0.0.1', ATALAYA_WORKERS: String(workers) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Atalaya is running at http:\/\/localhost:(\d+)\//.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  child.stdout?.resume();
  // Let every worker of the cluster listen before measuring.
  await new Promise((r) => setTimeout(r, workers > 1 ? 3000 : 500));
  const store = await openStore(loadConfig(env));
  return {
    port,
    store,
    async stop() {
      await store.destroy();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function signedInRead(server: Started, seconds: number): Promise<LoadResult> {
  const { row, headers } = await demoDomainRead(server.store);
  return load(`http://127.0.0.1:${server.port}/p247/domain/${row.itemId}/`, { headers, seconds });
}

/** Queues JOBS probe jobs of ITEMS items in one commit and answers jobs/s until all are done. */
async function jobThroughput(store: Store): Promise<number> {
  const t = Math.floor(Date.now() / 1000);
  const rows = Array.from({ length: JOBS }, (_, i) => ({
    kind: PROBE_JOB,
    item_id: -(1 + (i % ITEMS)),
    payload: JSON.stringify({ item: 1 + (i % ITEMS), seq: Math.floor(i / ITEMS), ms: 0 }),
    status: 'pending' as const,
    next_at: t,
    created_at: t,
    updated_at: t,
  }));
  const started = performance.now();
  await store.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 500)
      await trx
        .insertInto('job')
        .values(rows.slice(i, i + 500))
        .execute();
  });
  for (;;) {
    const left = await store
      .selectFrom('job')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('kind', '=', PROBE_JOB)
      .where('status', '!=', 'done')
      .executeTakeFirstOrThrow();
    if (Number(left.n) === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return JOBS / ((performance.now() - started) / 1000);
}

export async function scaleScenario(ctx: { seconds: number; baseline?: LoadResult }) {
  const stores: [string, string | undefined][] = [['SQLite', undefined]];
  if (process.env.BENCH_PG) stores.push(['PostgreSQL', process.env.BENCH_PG]);
  for (const [label, admin] of stores) {
    const reads: LoadResult[] = [];
    const jobs: number[] = [];
    for (const workers of [1, 2]) {
      const db = admin ? await freshDatabase(admin) : null;
      const server = await startServer(workers, db?.url);
      try {
        reads.push(await signedInRead(server, ctx.seconds));
        report(`GET /p247/domain/{id}/ ${label}, ${workers} process${workers > 1 ? 'es' : ''}`, reads.at(-1)!, ctx.baseline);
        jobs.push(await jobThroughput(server.store));
        console.log(
          `${`outbox ${label}, ${workers} process${workers > 1 ? 'es' : ''}`.padEnd(44)} ${jobs.at(-1)!.toFixed(0).padStart(8)} jobs/s (${JOBS} probe jobs, ${ITEMS} items)`,
        );
      } finally {
        await server.stop();
        await db?.drop();
      }
    }
    console.log(
      `  ${label}: 2 processes read ${(reads[1].rps / reads[0].rps).toFixed(2)}× and apply jobs ${(jobs[1] / jobs[0]).toFixed(2)}× one process`,
    );
  }
}

if (import.meta.main) await scaleScenario({ seconds: Number(process.env.BENCH_SECONDS ?? 5) });
