import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A fresh PostgreSQL database under the admin URL, for one suite, scenario or bench, and its
 * removal (FORCE: a killed server's connections do not keep it alive). Imports nothing of vitest,
 * so the benches use it too. A test store (`openTestStore`) asks for two things more:
 * - `template`: a copy of that database (a migrated store, templates.ts) instead of a blank one;
 * - `unsynced`: commits that do not wait for the WAL's flush to disk (`synchronous_commit = off`).
 *   Every row a test writes is still written and read back the same; only a crash of the
 *   PostgreSQL server could lose the last ones, which no test does, and a commit costs a
 *   millisecond instead of the disk's fsync (some 5 ms here).
 */
export async function freshDatabase(
  admin: string,
  prefix = 'atalaya_t',
  { template, unsynced = false }: { template?: string; unsynced?: boolean } = {},
) {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const run = (query: string) => adminQuery(admin, query);
  await run(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  if (unsynced) await run(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** Runs one statement as the admin URL's user, in its database or in `database`. */
export async function adminQuery(admin: string, query: string, database?: string) {
  const url = new URL(admin);
  if (database) url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}
