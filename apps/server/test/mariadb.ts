import mysql from 'mysql2/promise';

/** The MariaDB every engineer's machine runs on 127.0.0.1:3306 (root, no password); the tests' names carry a random prefix. */
export const MARIADB_ADMIN = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };

export const mariadbReachable = () =>
  mysql
    .createConnection({ ...MARIADB_ADMIN, connectTimeout: 2000 })
    .then((c) => c.end().then(() => true))
    .catch(() => false);

/** Drops every database and user whose name starts with `prefix`: what one suite created. */
export async function dropPrefixed(prefix: string) {
  const c = await mysql.createConnection(MARIADB_ADMIN);
  const [dbs] = await c.query('SELECT schema_name AS n FROM information_schema.schemata WHERE schema_name LIKE ?', [`${prefix}%`]);
  for (const { n } of dbs as { n: string }[]) await c.query(`DROP DATABASE \`${n}\``);
  const [users] = await c.query('SELECT User AS user, Host AS host FROM mysql.user WHERE User LIKE ?', [`${prefix}%`]);
  for (const u of users as { user: string; host: string }[]) await c.query('DROP USER ?@?', [u.user, u.host]);
  await c.end();
}
