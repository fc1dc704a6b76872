import { type MigrationDb, withId } from './helpers.ts';

/**
 * A domain's life: its renewal mode (`auto` renews before expiry, `expire` lets it lapse), and the
 * billing ledger the provider's billing reads. A billable action is recorded once: the same
 * action on the same domain from the same date (a renewal's curExpDate) is one event, however
 * often a request or a schedule retries it.
 */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  await db.schema
    .alterTable('domain')
    .addColumn('renewal_mode', 'text', (c) => c.notNull().defaultTo('auto'))
    .execute();
  // The expiry the renewal schedule has claimed to renew from, so that one run renews it, once.
  await db.schema.alterTable('domain').addColumn('renew_claimed', 'bigint').execute();
  await withId(db.schema.createTable('billing_event'), kind)
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('years', 'integer', (c) => c.notNull())
    .addColumn('from_date', 'text', (c) => c.notNull())
    .addColumn('expire_at', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('billing_event_once').on('billing_event').columns(['item_id', 'action', 'from_date']).unique().execute();
  await db.schema.createIndex('billing_event_created').on('billing_event').column('created_at').execute();
}
