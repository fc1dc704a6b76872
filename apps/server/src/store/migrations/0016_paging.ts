import { domainToUnicode } from 'node:url';
import { AREAS_BY_KIND, searchKey } from '@atalaya/contract';
import { sql } from 'kysely';
import type { MigrationDb } from './helpers.ts';

// The search text as items are written with it now (provisioning/names.ts itemSearchText), kept
// here as it was when this migration shipped.
function searchText(reference: string) {
  const written = searchKey(domainToUnicode(reference) || reference);
  return written === reference ? reference : `${written} ${reference}`;
}

const KIND_TABLE = { domain: 'domain', service: 'service', mail: 'mail_service' } as const;

/**
 * Lists paged on the server (docs/decisions/025-paged-lists.md).
 *
 * `item.search` is the reference as people write it (Unicode, not punycode), lower-cased and
 * without accents (the contract's searchKey), written with the item. `list_entry` holds one row per user, kind and item the user sees in that
 * kind's list, so a page and its total read one index range of one table, whatever the realm's
 * size; it carries the kind's expiry too, so the expiry sort walks an index as well. PostgreSQL
 * compares the search texts byte by byte ("C"), as SQLite does, so both stores sort alike.
 */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  const collate = kind === 'postgres' ? sql` COLLATE "C"` : sql``;
  await sql`ALTER TABLE item ADD COLUMN search text${collate} NOT NULL DEFAULT ''`.execute(db);
  const items = await db.selectFrom('item').select(['id', 'reference']).execute();
  for (const item of items as { id: number; reference: string }[]) {
    await db
      .updateTable('item')
      .set({ search: searchText(item.reference) })
      .where('id', '=', item.id)
      .execute();
  }
  await db.schema.createIndex('item_realm_search').on('item').columns(['realm_id', 'search']).execute();

  await sql`CREATE TABLE list_entry (
    user_id integer NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
    kind text NOT NULL,
    item_id integer NOT NULL REFERENCES item(id) ON DELETE CASCADE,
    search text${collate} NOT NULL,
    expire_at bigint NOT NULL,
    PRIMARY KEY (user_id, kind, item_id)
  )`.execute(db);
  await db.schema.createIndex('list_entry_search').on('list_entry').columns(['user_id', 'kind', 'search', 'item_id']).execute();
  await db.schema
    .createIndex('list_entry_expiry')
    .on('list_entry')
    .columns(['user_id', 'kind', 'expire_at', 'search', 'item_id'])
    .execute();
  await db.schema.createIndex('list_entry_item').on('list_entry').column('item_id').execute();
  // Each list's unfiltered total, kept with the entries: the first page and the dashboard's
  // domain count read one row instead of counting 100,000 entries.
  await sql`CREATE TABLE list_total (
    user_id integer NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
    kind text NOT NULL,
    total integer NOT NULL,
    PRIMARY KEY (user_id, kind)
  )`.execute(db);
  // The entries of the permissions granted so far (the code that grants writes them from now on).
  for (const [listKind, table] of Object.entries(KIND_TABLE) as [keyof typeof KIND_TABLE, string][]) {
    await sql`
      INSERT INTO list_entry (user_id, kind, item_id, search, expire_at)
      SELECT DISTINCT permission.user_id, ${sql.lit(listKind)}, item.id, item.search, k.expire_at
      FROM permission JOIN item ON item.id = permission.item_id JOIN ${sql.table(table)} AS k ON k.item_id = item.id
      WHERE permission.area IN (${sql.join(AREAS_BY_KIND[listKind].map((a) => sql.lit(a)))})
        AND permission.level IN ('read', 'write')`.execute(db);
  }
  await sql`INSERT INTO list_total (user_id, kind, total) SELECT user_id, kind, COUNT(*) FROM list_entry GROUP BY user_id, kind`.execute(
    db,
  );
}
