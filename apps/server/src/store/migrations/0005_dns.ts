import { type MigrationDb, withId } from './helpers.ts';

/** The dns area's tables: one zone per hosting item, its records. */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  await db.schema
    .createTable('dns_zone')
    .addColumn('item_id', 'integer', (c) => c.primaryKey().references('item.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('applied_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('applied_at', 'integer')
    .addColumn('served', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('dns_record'), kind)
    .addColumn('item_id', 'integer', (c) => c.notNull().references('dns_zone.item_id').onDelete('cascade'))
    .addColumn('zona', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('ttl', 'integer', (c) => c.notNull())
    .addColumn('priority', 'integer')
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('dynamic_value', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dns_record_item').on('dns_record').columns(['item_id', 'zona']).execute();
}
