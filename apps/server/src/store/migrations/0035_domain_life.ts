import { sql } from 'kysely';
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
  // The lists keep a copy of each expiry for their sort (list_entry): a renewal, a restore or the
  // registry's date read in must reach it, whoever writes the domain's expiry.
  if (kind === 'postgres') {
    await sql
      .raw(
        `CREATE FUNCTION domain_list_expiry() RETURNS trigger AS $$ BEGIN
           UPDATE list_entry SET expire_at = NEW.expire_at WHERE item_id = NEW.item_id AND kind = 'domain'; RETURN NULL;
         END $$ LANGUAGE plpgsql`,
      )
      .execute(db);
    await sql
      .raw(
        'CREATE TRIGGER domain_list_expiry AFTER UPDATE OF expire_at ON domain FOR EACH ROW WHEN (OLD.expire_at IS DISTINCT FROM NEW.expire_at) EXECUTE FUNCTION domain_list_expiry()',
      )
      .execute(db);
  } else {
    await sql
      .raw(
        `CREATE TRIGGER domain_list_expiry AFTER UPDATE OF expire_at ON domain WHEN OLD.expire_at IS NOT NEW.expire_at BEGIN
           UPDATE list_entry SET expire_at = NEW.expire_at WHERE item_id = NEW.item_id AND kind = 'domain'; END`,
      )
      .execute(db);
  }
}
