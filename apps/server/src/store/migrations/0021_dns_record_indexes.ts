import { sql } from 'kysely';
import type { MigrationDb } from './helpers.ts';

/**
 * A zone of 50,000 records read one page at a time (docs/decisions/025-paged-lists.md):
 * - the screen's order (name, type) is the index's, so page 2,500 no longer sorts the zone;
 * - (item, type) finds a zone's NS records and counts one type without reading the others;
 * - the search text the filter reads is indexed: on SQLite the words are looked for in the index's
 *   copy of it, never recomputed from the rows; on PostgreSQL a trigram index serves the LIKE
 *   (when pg_trgm could be created, see 0020).
 * The expression is the one `modules/dns/page.ts` filters on, character for character: the stores
 * use an expression's index only for that same expression (a test checks the plan).
 */
export const RECORD_SEARCH_TEXT = `lower(zona || ' ' || type || ' ' || coalesce(cast(priority as text), '') || ' ' || value || ' ' || coalesce(dynamic_value, ''))`;

export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  await db.schema.dropIndex('dns_record_item').execute();
  await db.schema.createIndex('dns_record_order').on('dns_record').columns(['item_id', 'zona', 'type']).execute();
  await db.schema.createIndex('dns_record_type').on('dns_record').columns(['item_id', 'type']).execute();
  if (kind === 'sqlite') {
    await sql`CREATE INDEX dns_record_search ON dns_record (item_id, ${sql.raw(RECORD_SEARCH_TEXT)})`.execute(db);
    return;
  }
  const trigrams = await sql`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`.execute(db);
  if (trigrams.rows.length === 0) return;
  await sql`CREATE INDEX dns_record_search ON dns_record USING gin ((${sql.raw(RECORD_SEARCH_TEXT)}) gin_trgm_ops)`.execute(db);
}
