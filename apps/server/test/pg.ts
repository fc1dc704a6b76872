import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A fresh PostgreSQL database under the admin URL, for one suite, scenario or bench, and its
 * removal (FORCE: a killed server's connections do not keep it alive). Imports nothing of vitest,
 * so the benches use it too.
 */
export async function freshDatabase(admin: string, prefix = 'atalaya_t') {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const run = (query: string) => adminQuery(admin, query);
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
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
