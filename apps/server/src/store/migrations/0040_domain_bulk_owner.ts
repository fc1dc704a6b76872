import { type MigrationDb, withId } from './helpers.ts';

/**
 * Bulk actions over domains (one row for the action, one per domain with where it stands, the
 * registry change it queued when it queued one) and the transfer lock after a change of owner:
 * the date until which the panel keeps clientTransferProhibited on the domain, lifted by a schedule.
 */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  await withId(db.schema.createTable('domain_bulk'), kind)
    .addColumn('user_id', 'integer', (c) => c.notNull())
    // Who may follow it: the user, and the API token when one made it (callerKey), so a token sees only its own batches.
    .addColumn('caller', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await withId(db.schema.createTable('domain_bulk_item'), kind)
    .addColumn('bulk_id', 'integer', (c) => c.notNull())
    .addColumn('item_id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('change_id', 'integer')
    .execute();
  await db.schema.createIndex('domain_bulk_item_bulk').on('domain_bulk_item').columns(['bulk_id', 'id']).execute();
  await db.schema.alterTable('domain').addColumn('transfer_lock_until', 'bigint').execute();
}
