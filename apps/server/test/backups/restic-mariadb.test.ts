import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupRepository, StoredPart } from '../../src/drivers/backups/interface.ts';
import { resticDriver } from '../../src/drivers/backups/restic.ts';
import { mariaDbDriver } from '../../src/drivers/databases/mariadb.ts';
import { missingBinaries } from '../backends/harness/common.ts';
import { dropPrefixed, MARIADB_ADMIN, mariadbReachable } from '../mariadb.ts';
import { skipReason } from '../skip.ts';
import { RESTIC, resticJson } from './helpers.ts';

/**
 * A database backed up with the real MariaDB (127.0.0.1:3306): `mariadb-dump --single-transaction`
 * streamed into restic's stdin, a deleted row brought back in a copy (the live database untouched)
 * and in place (a table made after the backup gone too).
 */
const reachable = await mariadbReachable();
const skip =
  missingBinaries(RESTIC) ?? skipReason(reachable ? null : 'MariaDB is not reachable at 127.0.0.1:3306: the database backup tests');
const prefix = `b${randomBytes(3).toString('hex')}_`;

describe.skipIf(skip)('database backups on MariaDB', () => {
  const base = mkdtempSync(path.join(tmpdir(), 'atalaya-restic-db-'));
  const repo: BackupRepository = { url: path.join(base, 'repo'), password: 'db-key' };
  const databases = mariaDbDriver({ dsn: 'mysql://root@127.0.0.1:3306', prefix });
  const driver = resticDriver({
    restic: { binary: RESTIC, cacheDir: path.join(base, 'cache') },
    webRoot: path.join(base, 'www'),
    mailRoot: path.join(base, 'vmail'),
    databases: () => databases,
  });
  const name = `${prefix}shop_1`;
  const copy = `${prefix}shop_1_r20261202`;
  const rows = async (database: string, table = 't') => {
    const c = await mysql.createConnection({ ...MARIADB_ADMIN, database });
    try {
      const [r] = await c.query(`SELECT id, note FROM ${table} ORDER BY id`);
      return (r as { id: number; note: string }[]).map((x) => `${x.id}:${x.note}`);
    } finally {
      await c.end();
    }
  };
  const sql = async (database: string, statement: string) => {
    const c = await mysql.createConnection({ ...MARIADB_ADMIN, database });
    await c.query(statement).finally(() => c.end());
  };
  let parts: StoredPart[];

  beforeAll(async () => {
    await databases.ensure({ name, user: name, password: 'Db-pass-12345', externalAccess: false });
    await sql(name, 'CREATE TABLE t (id int primary key, note varchar(40))');
    await sql(name, "INSERT INTO t VALUES (1, 'uno'), (2, 'dos'), (3, 'tres ñ')");
    await driver.ensureRepository(repo);
    ({ parts } = await driver.snapshot(repo, { tags: ['realm:db'], host: 'web1', db: { names: [name] } }));
  });
  afterAll(async () => {
    await dropPrefixed(prefix);
    rmSync(base, { recursive: true, force: true });
  });

  it('keeps the dump as its own snapshot, tagged with the database', () => {
    const [snapshot] = resticJson(repo, ['snapshots', parts[0].snapshot]) as { tags: string[]; paths: string[] }[];
    expect(snapshot.tags.sort()).toEqual([`db:${name}`, 'part:db', 'realm:db']);
    expect(snapshot.paths).toEqual([`/${name}.sql`]);
  });

  it('restores a deleted row into a copy, leaving the live database as it is, then in place', async () => {
    await sql(name, 'DELETE FROM t WHERE id = 2');
    await sql(name, 'CREATE TABLE later (id int primary key, note varchar(40))');
    await databases.ensure({ name: copy, user: copy, password: 'Db-pass-12345', externalAccess: false });
    const copied = await driver.restore(repo, { parts, part: 'db', path: `/${name}`, target: 'copy', stamp: 's', copyDatabase: copy });
    expect(copied.result).toBe(copy);
    expect(await rows(copy)).toEqual(['1:uno', '2:dos', '3:tres ñ']);
    expect(await rows(name)).toEqual(['1:uno', '3:tres ñ']);
    await driver.restore(repo, { parts, part: 'db', path: `/${name}`, target: 'replace', stamp: 's' });
    expect(await rows(name)).toEqual(['1:uno', '2:dos', '3:tres ñ']);
    // Replaced, not merged: what was made after the backup is gone.
    expect(await rows(name, 'later').catch((e) => String(e.code))).toBe('ER_NO_SUCH_TABLE');
    // The database's user still reaches it: a DROP DATABASE leaves the grants.
    const user = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: name, password: 'Db-pass-12345', database: name });
    await user.end();
  });
});
