import type { Connection, ConnectionOptions } from 'mysql2/promise';

/** One connection to MariaDB; mysql2 loads with the first, so an installation without MariaDB never holds it. */
export async function mysqlConnection(options: ConnectionOptions): Promise<Connection> {
  const { default: mysql } = await import('mysql2/promise');
  return mysql.createConnection(options);
}
