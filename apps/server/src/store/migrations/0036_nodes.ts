import { type MigrationDb, type StoreKind, withId } from './helpers.ts';

/**
 * Hosting servers (nodes) the panel drives through an agent each (decision 040): the node, the
 * panel's own certificate authority that issues the agents' client certificates, the node an item
 * is placed on, and the node a job must be applied by (null: the panel's own worker, as before).
 */
export async function up(db: MigrationDb, kind: StoreKind) {
  await withId(db.schema.createTable('node'), kind)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text')
    .addColumn('token_expires_at', 'bigint')
    .addColumn('cert_serial', 'text')
    .addColumn('version', 'text')
    .addColumn('last_contact_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('node_ca')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('cert_pem', 'text', (c) => c.notNull())
    .addColumn('key_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('item').addColumn('node_id', 'integer').execute();
  await db.schema.alterTable('job').addColumn('node_id', 'integer').execute();
  await db.schema.createIndex('job_node_status').on('job').columns(['node_id', 'status']).execute();
}
