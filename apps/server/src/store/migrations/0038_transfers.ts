import type { MigrationDb } from './helpers.ts';

/**
 * Transfers (RFC 5731 §3.2.4). `transfer_in` is the panel's: the item was created for a domain
 * held at another registrar and waits for its transfer in, so the panel never registers it.
 * `sponsor` and `domain_transfer` are the local registry's state: which registrar account holds
 * the domain ('' is the panel's own) and the domain's last transfer, as an EPP registry keeps them.
 */
export async function up(db: MigrationDb) {
  await db.schema
    .alterTable('domain')
    .addColumn('transfer_in', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('domain')
    .addColumn('sponsor', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createTable('domain_transfer')
    .addColumn('item_id', 'integer', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'bigint', (c) => c.notNull())
    .addColumn('action_by', 'text', (c) => c.notNull())
    .addColumn('action_at', 'bigint', (c) => c.notNull())
    .addColumn('years', 'integer', (c) => c.notNull())
    .execute();
}
