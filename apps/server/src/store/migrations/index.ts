import { sql } from 'kysely';
import type { Store } from '../db.ts';
import type { MigrationDb } from './helpers.ts';
import * as core from './0001_core.ts';
import * as account from './0002_account.ts';
import * as domain from './0003_domain.ts';
import * as service from './0004_service.ts';
import * as dns from './0005_dns.ts';
import * as sites from './0006_sites.ts';
import * as authVersion from './0007_auth_version.ts';

type Migration = { up: (db: MigrationDb, kind: Store['kind']) => Promise<void> };

/** In order; never edit one that has shipped, add the next. */
const MIGRATIONS: [string, Migration][] = [
  ['0001_core', core],
  ['0002_account', account],
  ['0003_domain', domain],
  ['0004_service', service],
  ['0005_dns', dns],
  ['0006_sites', sites],
  ['0007_auth_version', authVersion],
];

/** Runs every pending migration, each in its own transaction, on either store. */
export async function migrateToLatest(store: Store) {
  await sql`CREATE TABLE IF NOT EXISTS schema_migration (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)`.execute(store);
  const done = new Set(
    (await sql<{ name: string }>`SELECT name FROM schema_migration`.execute(store)).rows.map((r) => r.name),
  );
  for (const [name, migration] of MIGRATIONS) {
    if (done.has(name)) continue;
    await store.transaction().execute(async (trx) => {
      await migration.up(trx, store.kind);
      await sql`INSERT INTO schema_migration (name, applied_at) VALUES (${name}, ${Math.floor(Date.now() / 1000)})`.execute(trx);
    });
  }
}
