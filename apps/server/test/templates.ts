import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openStore } from '../src/store/db.ts';
import { adminQuery, freshDatabase } from './pg.ts';

/**
 * vitest's global set-up (decision 056): one store of each kind migrated before any test file
 * runs, which every test store of the run starts as a copy of (`openTestStore`): the SQLite file
 * copied, the PostgreSQL database created with it as its template. Migrating 34 steps for each of
 * the suite's hundreds of stores cost more than some files' tests; a copy has the same schema, rows
 * and `schema_migration` lines, so `openStore` finds nothing to do. The migrations themselves run
 * on blank stores elsewhere (`freshDatabase`, scale-config.test.ts, names.test.ts).
 *
 * Handed to vitest's forks in the environment, which they inherit; a run without it (a bench)
 * migrates each store itself. The PostgreSQL databases of the run share a prefix of its own, so
 * the teardown drops those a test process left (its drops do not wait: each waits for a checkpoint)
 * and never another run's.
 */
export default async function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), 'atalaya-template-'));
  const sqlite = await openStore({ dataDir: dir });
  await sqlite.destroy();
  process.env.ATALAYA_TEST_SQLITE_TEMPLATE = path.join(dir, 'atalaya.sqlite');
  const admin = process.env.ATALAYA_TEST_PG;
  const prefix = `atalaya_r${process.pid}`;
  if (admin) {
    await dropLeftovers(admin);
    const db = await freshDatabase(admin, prefix);
    const store = await openStore({ dataDir: dir, databaseUrl: db.url });
    await store.destroy();
    // CREATE DATABASE … TEMPLATE needs the template without sessions: none may open one.
    await adminQuery(admin, `ALTER DATABASE ${db.name} WITH ALLOW_CONNECTIONS false`);
    process.env.ATALAYA_TEST_PG_TEMPLATE = db.name;
    process.env.ATALAYA_TEST_PG_PREFIX = prefix;
  }
  return async () => {
    if (admin) await dropRun(admin, prefix);
    rmSync(dir, { recursive: true, force: true });
  };
}

/** The names of the server's databases that begin with `prefix`. */
async function databasesNamed(admin: string, prefix: string) {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
    return rows.map((r) => r.datname);
  } finally {
    await client.end();
  }
}

/** What runs killed before their teardown left: their vitest process (the pid in the names) is gone. */
async function dropLeftovers(admin: string) {
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const pids = new Set((await databasesNamed(admin, 'atalaya_r')).map((name) => Number(/^atalaya_r(\d+)_/.exec(name)?.[1])));
  for (const pid of pids) if (pid && !alive(pid)) await dropRun(admin, `atalaya_r${pid}`);
}

/** Drops every database of the run (the template and what the test processes left), a few at a time. */
async function dropRun(admin: string, prefix: string) {
  const names = await databasesNamed(admin, `${prefix}_`);
  const lane = async () => {
    for (let name = names.pop(); name; name = names.pop()) await adminQuery(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
  await Promise.all([lane(), lane(), lane(), lane()]);
}
