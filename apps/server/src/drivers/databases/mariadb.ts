import { spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import type mysql from 'mysql2/promise';
import { mysqlConnection } from '../mysql.ts';
import { DATABASE_NAME, type DatabaseDriver } from './interface.ts';
import { type MariaDbOptions, mariaDbOptionsSchema } from './mariadb-options.ts';

/** Backtick-quoted identifier; names are also checked against a strict pattern before any SQL. */
const ident = (name: string) => `\`${name.replace(/`/g, '``')}\``;

function checkName(name: string) {
  if (!DATABASE_NAME.test(name)) throw new Error(`refusing database or user name ${JSON.stringify(name)}`);
}

export function parseOptions(raw: Record<string, unknown>): MariaDbOptions {
  const parsed = mariaDbOptionsSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(
      `mariadb driver options: ${parsed.error.issues.map((i) => `drivers.databases.${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

/** The real driver: SQL over an admin connection, `mariadb-dump` for dumps (argument array, no shell). */
export function mariaDbDriver(raw: Record<string, unknown>): DatabaseDriver {
  const options = parseOptions(raw);
  const url = new URL(options.dsn.replace(/^mariadb:/, 'mysql:'));
  const localHosts = options.localHosts ?? ['localhost', '127.0.0.1'];
  const hosts = [...localHosts, '%'];
  const connect = () =>
    mysqlConnection({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      connectTimeout: 5000,
      multipleStatements: false,
    });
  // The command-line tools (dump, restore) connect as the admin account; its password travels in
  // the environment, never on the command line (ps shows argv).
  const adminArgs = () => [
    '--no-defaults',
    `--host=${url.hostname}`,
    `--port=${url.port || 3306}`,
    `--user=${decodeURIComponent(url.username)}`,
  ];
  const adminEnv = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', MYSQL_PWD: decodeURIComponent(url.password) });
  async function withConnection<T>(names: string[], work: (c: mysql.Connection) => Promise<T>): Promise<T> {
    for (const name of names) checkName(name);
    const c = await connect();
    try {
      return await work(c);
    } finally {
      await c.end().catch(() => c.destroy());
    }
  }

  return {
    prefix: options.prefix,
    ensure: ({ name, user, password, externalAccess }) =>
      withConnection([name, user], async (c) => {
        await c.query(`CREATE DATABASE IF NOT EXISTS ${ident(name)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
        const wanted = externalAccess ? ['%'] : localHosts;
        // The new hosts first, then the old ones go: the user is never locked out half-way.
        for (const host of wanted) {
          await c.query('CREATE USER IF NOT EXISTS ?@? IDENTIFIED BY ?', [user, host, password]);
          await c.query('ALTER USER ?@? IDENTIFIED BY ?', [user, host, password]);
          await c.query(`GRANT ALL PRIVILEGES ON ${ident(name)}.* TO ?@?`, [user, host]);
        }
        for (const host of hosts.filter((h) => !wanted.includes(h))) await c.query('DROP USER IF EXISTS ?@?', [user, host]);
      }),
    remove: ({ name, user }) =>
      withConnection([name, user], async (c) => {
        for (const host of hosts) await c.query('DROP USER IF EXISTS ?@?', [user, host]);
        await c.query(`DROP DATABASE IF EXISTS ${ident(name)}`);
      }),
    sizes: (names) =>
      names.length === 0
        ? Promise.resolve({})
        : withConnection(names, async (c) => {
            // information_schema: what the server reports the tables take, data and indexes.
            const [rows] = await c.query(
              `SELECT s.schema_name AS name, COALESCE(SUM(t.data_length + t.index_length), 0) AS bytes
                 FROM information_schema.schemata s LEFT JOIN information_schema.tables t ON t.table_schema = s.schema_name
                WHERE s.schema_name IN (?) GROUP BY s.schema_name`,
              [names],
            );
            return Object.fromEntries((rows as { name: string; bytes: string | number }[]).map((r) => [r.name, Number(r.bytes)]));
          }),
    dump: async (name) => {
      checkName(name);
      const args = [...adminArgs(), '--single-transaction', '--routines', '--triggers', '--databases', name];
      const child = spawn(options.dumpCommand ?? 'mariadb-dump', args, {
        env: adminEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      return firstChunkOrFailure(child);
    },
    restore: async (name, sql) => {
      checkName(name);
      const child = spawn(options.clientCommand ?? 'mariadb', [...adminArgs(), name], {
        env: adminEnv(),
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-2000);
      });
      const exited = new Promise<number | null>((resolve, reject) => {
        child.on('error', reject);
        child.on('close', resolve);
      });
      sql.pipe(child.stdin!);
      const code = await exited;
      if (code !== 0) throw new Error(`mariadb failed to load the dump of ${name} (${code}): ${stderr.trim()}`);
    },
  };
}

/** Waits for the first bytes (the dump works) or the exit (it failed): a failure is then an error, not a truncated file. */
function firstChunkOrFailure(child: ReturnType<typeof spawn>): Promise<Readable> {
  return new Promise((resolve, reject) => {
    const out = new PassThrough();
    let stderr = '';
    let started = false;
    child.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    child.on('error', (error) => (started ? out.destroy(error) : reject(error)));
    child.stdout?.once('data', (chunk: Buffer) => {
      started = true;
      out.write(chunk);
      child.stdout?.pipe(out, { end: false });
      resolve(out);
    });
    child.on('close', (code) => {
      if (!started) return reject(new Error(`mariadb-dump failed (${code}): ${stderr.trim()}`));
      if (code === 0) out.end();
      else out.destroy(new Error(`mariadb-dump failed (${code}): ${stderr.trim()}`));
    });
  });
}
