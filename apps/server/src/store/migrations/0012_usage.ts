import type { MigrationDb } from './helpers.ts';

/**
 * Measured usage: when the service's figures were last measured (web space, mailboxes and
 * databases together), and each database's own size.
 */
export async function up(db: MigrationDb) {
  await db.schema.alterTable('service').addColumn('usage_measured_at', 'bigint').execute();
  await db.schema
    .alterTable('service_database')
    .addColumn('used', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}
