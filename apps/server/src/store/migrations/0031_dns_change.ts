import { type MigrationDb, withId } from './helpers.ts';

/**
 * A zone's history: each change keeps the RRsets it changed as they were and as they became, who
 * made it and when, written in the change's own transaction so the history never misses one.
 */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  await withId(db.schema.createTable('dns_change'), kind)
    .addColumn('item_id', 'integer', (c) => c.notNull().references('dns_zone.item_id').onDelete('cascade'))
    .addColumn('at', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('by', 'text', (c) => c.notNull())
    .addColumn('before', 'text', (c) => c.notNull())
    .addColumn('after', 'text', (c) => c.notNull())
    .addColumn('reverts', 'integer')
    .execute();
  await db.schema.createIndex('dns_change_item').on('dns_change').columns(['item_id', 'id']).execute();
}
