import { AREAS_BY_KIND, LIST_KINDS } from '@atalaya/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../store/schema.ts';

export const KIND_TABLE = { domain: 'domain', service: 'service', mail: 'mail_service' } as const;

/**
 * Rewrites a user's list entries (of one item, or of all their items) from their permission rows:
 * an entry for each kind the item has and on which the user sees at least one area. Called in the
 * transaction that changes the permissions, so the lists never disagree with them.
 */
export async function refreshListEntries(db: Kysely<Database>, scope: { userId: number; itemId?: number }) {
  const { userId, itemId } = scope;
  await db
    .deleteFrom('list_entry')
    .where('user_id', '=', userId)
    .$if(itemId !== undefined, (q) => q.where('item_id', '=', itemId!))
    .execute();
  // Literals, not parameters: PostgreSQL cannot type a bare parameter in a SELECT list; all are numbers and constants.
  const onItem = itemId === undefined ? sql`` : sql` AND permission.item_id = ${sql.lit(itemId)}`;
  for (const kind of LIST_KINDS) {
    await sql`
      INSERT INTO list_entry (user_id, kind, item_id, search, expire_at)
      SELECT DISTINCT permission.user_id, ${sql.lit(kind)}, item.id, item.search, k.expire_at
      FROM permission JOIN item ON item.id = permission.item_id JOIN ${sql.table(KIND_TABLE[kind])} AS k ON k.item_id = item.id
      WHERE permission.user_id = ${sql.lit(userId)}${onItem}
        AND permission.area IN (${sql.join(AREAS_BY_KIND[kind].map((a) => sql.lit(a)))})
        AND permission.level IN ('read', 'write')`.execute(db);
  }
}
