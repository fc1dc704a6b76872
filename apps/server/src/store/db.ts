import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { createPrivateFile, secureDataDir } from './data-dir.ts';
import { migrateToLatest } from './migrations/index.ts';
import type { Database } from './schema.ts';
import { nodeSqliteDialect, type ReadNow } from './sqlite-dialect.ts';

export type Store = Kysely<Database> & {
  readonly kind: 'sqlite' | 'postgres';
  /** SQLite only: a compiled read run without Kysely's round trip (store/compiled.ts). */
  readonly readNow?: ReadNow;
};

// PostgreSQL answers COUNT and BIGINT as strings; the panel's numbers all fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));

export interface StoreOptions {
  databaseUrl?: string;
  dataDir: string;
}

export async function openStore({ databaseUrl, dataDir }: StoreOptions): Promise<Store> {
  let db: Kysely<Database>;
  let kind: Store['kind'];
  let readNow: ReadNow | undefined;
  // The data dir (key, mail, local state, the SQLite store) is the panel's alone: 0700, files 0600.
  secureDataDir(dataDir);
  if (databaseUrl) {
    kind = 'postgres';
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
  }
  const store = Object.assign(db, { kind, readNow }) as Store;
  await migrateToLatest(store);
  return store;
}

export const now = () => Math.floor(Date.now() / 1000);
