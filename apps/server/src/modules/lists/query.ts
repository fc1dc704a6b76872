/**
 * The domain, service and mail lists, one page at a time (docs/decisions/025-paged-lists.md). A row
 * is an item the user sees in that kind's list (a `list_entry`). The total counts one index range
 * of list_entry; the page walks the same range in the asked order and stops after ten rows, then
 * joins the item and the kind's row for those ten only.
 */
import {
  AREAS_BY_KIND,
  type ItemRow,
  LIST_KINDS,
  type ListKind,
  PAGE_SIZE,
  type Page,
  pageCount,
  type SortOrder,
  searchKey,
} from '@atalaya/contract';
import { type RawBuilder, sql } from 'kysely';
import { type LifePolicy, lifecycleAt } from '../../drivers/registry/lifecycle.ts';
import { FieldErrors } from '../../http/errors.ts';
import { now, type Store } from '../../store/db.ts';
import type { SessionUser } from '../permission/caller.ts';
import { seesItem } from '../permission/visible.ts';
import { KIND_TABLE, keptTotal } from './entries.ts';

export interface PageRequest<S extends string> {
  page: number;
  filter: string;
  sort: S;
  order: SortOrder;
}

/** The words of a filter, each normalised as the search columns are; none means no filter. */
export const filterWords = (filter: string) => searchKey(filter).split(/\s+/).filter(Boolean);

/**
 * `column` holds `word` (already normalised): a plain substring test, so % and _ mean nothing
 * special. PostgreSQL's is a LIKE with them escaped (backslash is its default escape), which the
 * list's trigram index serves (migration 0020).
 */
export function contains(store: Store, column: string | RawBuilder<unknown>, word: string) {
  const text = typeof column === 'string' ? sql.ref(column) : column;
  if (store.kind === 'sqlite') return sql<boolean>`instr(${text}, ${word}) > 0`;
  return sql<boolean>`${text} LIKE ${`%${word.replace(/[\\%_]/g, '\\$&')}%`}`;
}

/** A page number past the last page is refused under the `page` field; an empty list has its page 1. */
export function checkPage(page: number, total: number) {
  const pages = pageCount(total);
  if (page > pages) throw FieldErrors.one('page', 'validation.page_past_end', { pages });
}

/** The kind's own table as `k`: it must still hold the item (the service's kind tells hosting from parking). */
const kindTable = (kind: ListKind) => sql<{ item_id: number; kind: string }>`${sql.table(KIND_TABLE[kind])}`.as('k');

/**
 * The caller's entries of a kind. list_entry is the user's visible set of each kind, written from
 * `visibleRows` (entries.ts), so a session reads it as it is; a token's cut of that set (its items,
 * the areas of the kind its scope reads) is probed per entry on top.
 */
function entriesOf(store: Store, user: SessionUser, kind: ListKind) {
  return store
    .selectFrom('list_entry as e')
    .where('e.user_id', '=', user.id)
    .where('e.kind', '=', kind)
    .$if(user.token !== undefined, (q) => q.where((eb) => seesItem(eb, store, user, 'e.item_id', AREAS_BY_KIND[kind])));
}

/** The kept total of the user's entries, which a token's cut does not count by. */
const keptTotalFor = (store: Store, user: SessionUser, kind: ListKind) => (user.token ? null : keptTotal(store, user.id, kind));

export async function itemPage(
  store: Store,
  user: SessionUser,
  kind: ListKind,
  request: PageRequest<'reference' | 'expiry'>,
  /** For the domain list: the registry's periods, to say where each domain is in its life. */
  life?: LifePolicy,
): Promise<Page<ItemRow>> {
  const words = filterWords(request.filter);
  let entries = entriesOf(store, user, kind);
  for (const word of words) entries = entries.where(contains(store, 'e.search', word));
  // Unfiltered, the kept total answers; a filter has to count what it keeps.
  const kept = words.length === 0 ? await keptTotalFor(store, user, kind) : null;
  const total = kept ?? Number((await entries.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  checkPage(request.page, total);
  const { order } = request;
  // The page is cut from list_entry alone, whose index holds the order: joined first, PostgreSQL
  // joined every row before the offset, so a deep page cost as much as all the pages before it.
  // The joins then check only those ten, and the outer query keeps their order.
  const slice = entries
    .select(['e.item_id', 'e.expire_at', 'e.search'])
    .$if(request.sort === 'expiry', (q) => q.orderBy('e.expire_at', order))
    .orderBy('e.search', order)
    .orderBy('e.item_id', order)
    .limit(PAGE_SIZE)
    .offset((request.page - 1) * PAGE_SIZE);
  const page = await store
    .selectFrom(slice.as('e'))
    .innerJoin('item', 'item.id', 'e.item_id')
    .innerJoin(kindTable(kind), 'k.item_id', 'e.item_id')
    .select(['item.id', 'item.reference', 'e.expire_at'])
    .$if(kind === 'service', (q) => q.select(sql<string>`k.kind`.as('service_kind')))
    .where('item.realm_id', '=', user.realmId)
    .$if(request.sort === 'expiry', (q) => q.orderBy('e.expire_at', order))
    .orderBy('e.search', order)
    .orderBy('e.item_id', order)
    .execute();
  return {
    rows: page.map((r) => ({
      id: r.id,
      reference: r.reference,
      expireTS: Number(r.expire_at),
      isRedirAndParking: (r as { service_kind?: string }).service_kind === 'parking',
      ...(kind === 'domain' && life ? { expiry: lifecycleAt(Number(r.expire_at), now(), life) } : {}),
    })),
    total,
    page: request.page,
    pageSize: PAGE_SIZE,
  };
}

/** How many items the user sees in a kind's list (the dashboard's domain total): the kept total, or a count. */
export async function countEntries(store: Store, user: SessionUser, kind: ListKind) {
  const kept = await keptTotalFor(store, user, kind);
  if (kept !== null) return kept;
  const row = await entriesOf(store, user, kind)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Which lists have at least one row for the user: one query, each kind a probe that stops at its first entry. */
export async function listKinds(store: Store, user: SessionUser): Promise<Record<ListKind, boolean>> {
  if (user.token) {
    // A token's cut: each kind probed through it (tokens are scripts, not shells: three small queries).
    const kinds = await Promise.all(
      LIST_KINDS.map(async (kind) => [kind, Boolean(await entriesOf(store, user, kind).select('e.item_id').limit(1).executeTakeFirst())]),
    );
    return Object.fromEntries(kinds) as Record<ListKind, boolean>;
  }
  const has = (kind: ListKind) =>
    // Ordered by the key, so PostgreSQL probes the index rather than scanning for the first match.
    sql<boolean>`(SELECT item_id FROM list_entry WHERE user_id = ${user.id} AND kind = ${kind} ORDER BY item_id LIMIT 1) IS NOT NULL`.as(
      kind,
    );
  const row = await store.selectNoFrom([has('domain'), has('service'), has('mail')]).executeTakeFirstOrThrow();
  // SQLite answers 0/1, PostgreSQL true/false.
  return { domain: Boolean(row.domain), service: Boolean(row.service), mail: Boolean(row.mail) };
}
