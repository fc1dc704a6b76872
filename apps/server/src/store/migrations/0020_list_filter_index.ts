import { sql } from 'kysely';
import type { MigrationDb } from './helpers.ts';

/**
 * A list filter on PostgreSQL finds its rows through a trigram index of the search text instead of
 * reading every entry of the user's list, which grows with the realm (docs/decisions/025-paged-lists.md;
 * figures in bench/LOG.md). The filter's words are matched with LIKE,
 * which the index serves; a word under three letters still reads every entry.
 *
 * pg_trgm ships with PostgreSQL and is a trusted extension (PostgreSQL 13+): the database's owner
 * may create it. A server that refuses it still migrates, without the index: filters then work as
 * before, only slower. SQLite, whose covering index already serves the filter, needs nothing.
 */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  if (kind !== 'postgres') return;
  await sql`SAVEPOINT list_filter_index`.execute(db);
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  } catch {
    await sql`ROLLBACK TO SAVEPOINT list_filter_index`.execute(db);
    return;
  }
  await sql`RELEASE SAVEPOINT list_filter_index`.execute(db);
  await sql`CREATE INDEX list_entry_filter ON list_entry USING gin (search gin_trgm_ops)`.execute(db);
}
