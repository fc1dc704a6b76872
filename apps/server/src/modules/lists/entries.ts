import { AREAS_BY_KIND, LIST_KINDS, type ListKind } from '@atalaya/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../store/schema.ts';
import { visibleRows } from '../permission/visible.ts';

export const KIND_TABLE = { domain: 'domain', service: 'service', mail: 'mail_service' } as const;

/**
 * Rewrites a user's list entries (of one item, or of all their items) from their permission rows:
 * an entry for each kind the item has and on which the user sees at least one area. Called in the
 * transaction that changes the permissions, so the lists never disagree with them; the lists'
 * totals follow (one up or down per item, recounted when every item is rewritten).
 */
export async function refreshListEntries(db: Kysely<Database>, scope: { userId: number; itemId?: number }) {
  const { userId, itemId } = scope;
  const kindsOf = async () =>
    itemId === undefined
      ? new Set<ListKind>()
      : new Set(
          (await db.selectFrom('list_entry').select('kind').where('user_id', '=', userId).where('item_id', '=', itemId).execute()).map(
            (r) => r.kind,
          ),
        );
  const before = await kindsOf();
  await db
    .deleteFrom('list_entry')
    .where('user_id', '=', userId)
    .$if(itemId !== undefined, (q) => q.where('item_id', '=', itemId!))
    .execute();
  for (const kind of LIST_KINDS) {
    // The user's visible set of the kind (a session's: the lists' token cut is applied when read).
    const visible = visibleRows(db, { id: userId }, AREAS_BY_KIND[kind])
      .innerJoin('item', 'item.id', 'p.item_id')
      .innerJoin(sql<{ item_id: number; expire_at: number }>`${sql.table(KIND_TABLE[kind])}`.as('k'), 'k.item_id', 'item.id')
      .$if(itemId !== undefined, (q) => q.where('p.item_id', '=', itemId!))
      // Literals, not parameters: PostgreSQL cannot type a bare parameter in a SELECT list.
      .select([sql.lit(userId).as('user_id'), sql.lit(kind).as('kind'), 'item.id as item_id', 'item.search', 'k.expire_at'])
      .distinct();
    await db.insertInto('list_entry').columns(['user_id', 'kind', 'item_id', 'search', 'expire_at']).expression(visible).execute();
  }
  const after = await kindsOf();
  for (const kind of LIST_KINDS) {
    if (itemId === undefined) await recountTotal(db, userId, kind);
    else if (before.has(kind) !== after.has(kind)) await adjustTotal(db, userId, kind, after.has(kind) ? 1 : -1);
  }
}

/** Counts a user's entries of one list into list_total. */
async function recountTotal(db: Kysely<Database>, userId: number, kind: ListKind) {
  const row = await db
    .selectFrom('list_entry')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('list_total')
    .values({ user_id: userId, kind, total: Number(row.n) })
    .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet({ total: Number(row.n) }))
    .execute();
}

/** One entry more or fewer; a total not kept yet is counted instead. */
async function adjustTotal(db: Kysely<Database>, userId: number, kind: ListKind, by: 1 | -1) {
  const updated = await db
    .updateTable('list_total')
    .set((eb) => ({ total: eb('total', '+', by) }))
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) await recountTotal(db, userId, kind);
}

/** A list's unfiltered total, as kept; null when none is kept (the caller counts). */
export async function keptTotal(db: Kysely<Database>, userId: number, kind: ListKind) {
  const row = await db.selectFrom('list_total').select('total').where('user_id', '=', userId).where('kind', '=', kind).executeTakeFirst();
  return row ? Number(row.total) : null;
}
