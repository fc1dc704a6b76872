import { bumpAuthVersionOnChange, type MigrationDb, withId } from './helpers.ts';

/**
 * Registry commands go through the outbox (decision 038). `registry_change` is the change a
 * customer asked for, kept until the registry has answered it: what the domain screens show as
 * pending or failed, with the registry's reason and transaction ids. Its writes bump
 * `auth_version`, so a kept domain answer shows the new state at once. `registry_message` keeps
 * the poll queue's messages the panel could not read, for the operator.
 */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  await withId(db.schema.createTable('registry_change'), kind)
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    // queued → (awaiting: the registry answered 1001) → done | failed
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('result', 'integer')
    .addColumn('transactions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('user_id', 'integer')
    .addColumn('job_id', 'integer')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('registry_change_item').on('registry_change').columns(['item_id', 'id']).execute();
  await db.schema.createIndex('registry_change_state').on('registry_change').columns(['state', 'id']).execute();
  await bumpAuthVersionOnChange(db, kind, 'registry_change');
  await withId(db.schema.createTable('registry_message'), kind)
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('queued_at', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('xml', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();
}
