import { type MigrationDb, withId } from './helpers.ts';

/**
 * DNSSEC of a zone (decision 034): where signing stands (`dnssec`, and when the next step is due),
 * the local driver's keys, and the DS records the panel itself placed at the registry, so the
 * domain's DNSSEC list can show them as managed and keep hands off them.
 */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  await db.schema
    .alterTable('dns_zone')
    .addColumn('dnssec', 'text', (c) => c.notNull().defaultTo('off'))
    .execute();
  await db.schema.alterTable('dns_zone').addColumn('dnssec_due_at', 'integer').execute();
  await withId(db.schema.createTable('dns_key'), kind)
    .addColumn('item_id', 'integer', (c) => c.notNull().references('dns_zone.item_id').onDelete('cascade'))
    .addColumn('flags', 'integer', (c) => c.notNull())
    .addColumn('algorithm', 'integer', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('private_sealed', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dns_key_item').on('dns_key').column('item_id').execute();
  await withId(db.schema.createTable('dns_managed_ds'), kind)
    .addColumn('item_id', 'integer', (c) => c.notNull().references('item.id').onDelete('cascade'))
    .addColumn('ds_id', 'integer', (c) => c.notNull())
    .addColumn('key_tag', 'integer', (c) => c.notNull())
    .addColumn('algorithm', 'integer', (c) => c.notNull())
    .addColumn('digest_type', 'integer', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dns_managed_ds_item').on('dns_managed_ds').columns(['item_id', 'ds_id']).unique().execute();
}
