import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config/config.ts';
import { openStore, type Store } from '../src/store/db.ts';

/**
 * The stores every integration test runs on: SQLite always; PostgreSQL when `npm test` found one
 * (ATALAYA_TEST_PG holds an admin URL; each suite gets a database of its own, dropped afterwards).
 */
export const STORE_KINDS: ('sqlite' | 'postgres')[] = process.env.ATALAYA_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestContext {
  app: Awaited<ReturnType<typeof buildApp>>;
  store: Store;
  config: Config;
  close(): Promise<void>;
}

export async function openTestStore(kind: 'sqlite' | 'postgres', overrides: Record<string, unknown> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atalaya-test-'));
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (kind === 'postgres') {
    const admin = process.env.ATALAYA_TEST_PG!;
    const name = `atalaya_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  const config = loadConfig({ ATALAYA_DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }, overrides);
  const store = await openStore(config);
  const cleanup = async () => {
    await store.destroy();
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { store, config, cleanup };
}

/** A real app over a fresh store of the given kind; the outbox worker is off, tests call drainJobs. */
export async function openTestApp(kind: 'sqlite' | 'postgres', overrides: Record<string, unknown> = {}): Promise<TestContext> {
  const { store, config, cleanup } = await openTestStore(kind, overrides);
  const app = await buildApp({ config, store, worker: false });
  return {
    app,
    store,
    config,
    close: async () => {
      await app.close();
      await cleanup();
    },
  };
}
