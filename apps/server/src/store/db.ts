import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import { createPrivateFile, secureDataDir } from './data-dir.ts';
import type { StoreKind } from './migrations/helpers.ts';
import { migrateToLatest } from './migrations/index.ts';
import type { OwnSignals } from './own-signals.ts';
import type { Database } from './schema.ts';
import { nodeSqliteDialect, type ReadNow } from './sqlite-dialect.ts';

export type Store = Kysely<Database> & {
  readonly kind: StoreKind;
  /** SQLite only: a compiled read run without Kysely's round trip (store/compiled.ts). */
  readonly readNow?: ReadNow;
  /** SQLite only: wake-ups from this process's own writes (store/own-signals.ts). */
  readonly ownSignals?: OwnSignals;
};

export interface StoreOptions {
  databaseUrl?: string;
  dataDir: string;
}

export async function openStore({ databaseUrl, dataDir }: StoreOptions): Promise<Store> {
  let db: Kysely<Database>;
  let kind: Store['kind'];
  let readNow: ReadNow | undefined;
  let signals: (OwnSignals & { watch(): void }) | undefined;
  // The data dir (key, mail, local state, the SQLite store) is the panel's alone: 0700, files 0600.
  secureDataDir(dataDir);
  if (databaseUrl) {
    kind = 'postgres';
    // pg loads only here: a SQLite installation never holds it in memory.
    const { default: pg } = await import('pg');
    // PostgreSQL answers COUNT and BIGINT as strings; the panel's numbers all fit in a double.
    pg.types.setTypeParser(20, (v) => Number(v));
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    // An idle client that loses its server (restart, dropped database) must not crash the process;
    // the pool replaces it and the next query reports any real outage.
    pool.on('error', () => {});
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    kind = 'sqlite';
    const file = path.join(dataDir, 'atalaya.sqlite');
    createPrivateFile(file);
    const sqlite = nodeSqliteDialect(file);
    db = new Kysely<Database>({ dialect: sqlite.dialect });
    readNow = sqlite.readNow;
    signals = sqlite.signals;
  }
  const store = Object.assign(db, { kind, readNow, ownSignals: signals }) as Store;
  await migrateToLatest(store);
  signals?.watch();
  return store;
}

export const now = () => Math.floor(Date.now() / 1000);
