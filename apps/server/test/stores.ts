import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config/config.ts';
import { openStore, type Store } from '../src/store/db.ts';
import { freshDatabase } from './pg.ts';

export type StoreKind = 'sqlite' | 'postgres';

const PG_ADMIN_URL = process.env.ATALAYA_TEST_PG;
// Under CI a missing PostgreSQL fails every file that would have run on it, never a quiet skip.
if (!PG_ADMIN_URL && process.env.CI) {
  throw new Error('PostgreSQL: ATALAYA_TEST_PG is not set (npm test sets it when one answers); CI must not skip the PostgreSQL half');
}

/**
 * A suite run on every store the integration tests cover: SQLite always, and PostgreSQL when
 * `npm test` found one (ATALAYA_TEST_PG holds an admin URL; each suite gets a database of its own,
 * dropped afterwards). Without PostgreSQL its half is still collected and reported as skipped, so
 * the count of tests never shrinks in silence. `%s` in the name stands for the store.
 */
export function describeStores(name: string, body: (kind: StoreKind) => void) {
  describe(name.replace('%s', 'sqlite'), () => body('sqlite'));
  describe.skipIf(!PG_ADMIN_URL)(name.replace('%s', 'postgres'), () => body('postgres'));
}

export interface TestContext {
  app: Awaited<ReturnType<typeof buildApp>>;
  store: Store;
  config: Config;
  close(): Promise<void>;
}

/**
 * A fresh store of the given kind in a data dir of its own. In a vitest run it is a copy of the
 * run's migrated store (templates.ts); on PostgreSQL its commits do not wait for the disk, and its
 * drop is not waited for (each waits for a checkpoint): the run's teardown drops what is left.
 */
export async function openTestStore(kind: StoreKind, overrides: Record<string, unknown> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atalaya-test-'));
  const {
    ATALAYA_TEST_SQLITE_TEMPLATE: sqliteTemplate,
    ATALAYA_TEST_PG_TEMPLATE: pgTemplate,
    ATALAYA_TEST_PG_PREFIX: pgPrefix,
  } = process.env;
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (kind === 'postgres') {
    const db = await freshDatabase(PG_ADMIN_URL!, pgPrefix, { template: pgTemplate, unsynced: Boolean(pgTemplate) });
    databaseUrl = db.url;
    dropDatabase = pgTemplate ? async () => void db.drop().catch(() => {}) : db.drop;
  } else if (sqliteTemplate) {
    const file = path.join(dataDir, 'atalaya.sqlite');
    copyFileSync(sqliteTemplate, file);
    chmodSync(file, 0o600);
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

/** A real app over a fresh store of the given kind; the outbox worker is off, tests drain its outbox (app.runtime.outbox.drain()). */
export async function openTestApp(kind: StoreKind, overrides: Record<string, unknown> = {}): Promise<TestContext> {
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

/** A suite that exists only on PostgreSQL (LISTEN/NOTIFY, advisory locks); reported as skipped without one. */
export function describePostgres(name: string, body: () => void) {
  describe.skipIf(!PG_ADMIN_URL)(name, body);
}
