import { existsSync } from 'node:fs';
import path from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';
import type { Config } from '../config/config.ts';
import { AccountError } from '../modules/provisioning/accounts.ts';

/**
 * `npm run admin -- backup <file>`: a consistent copy of the live SQLite store, taken with SQLite's
 * online backup while servers keep reading and writing (docs/deploy.md#backups). A PostgreSQL
 * store is backed up with pg_dump instead. Answers the number of pages copied.
 */
export async function backupSqlite(config: Config, target: string) {
  if (config.databaseUrl) throw new AccountError('the store is PostgreSQL: back it up with pg_dump (docs/deploy.md#backups)');
  if (existsSync(target)) throw new AccountError(`${target} already exists; choose a new file`);
  const source = new DatabaseSync(path.join(config.dataDir, 'atalaya.sqlite'));
  try {
    source.exec('PRAGMA busy_timeout = 5000');
    return await backup(source, target, { rate: 256 });
  } finally {
    source.close();
  }
}
