import type { MigrationDb } from './helpers.ts';

/**
 * A node's public IPv4 address (decision 047): the DNS records of the zones the panel serves point
 * at the node of their service (`{webIp}` and `{mailIp}` of the template), and a move switches them.
 */
export async function up(db: MigrationDb) {
  await db.schema.alterTable('node').addColumn('address', 'text').execute();
}
