/**
 * What a caller may see, defined once (decision 030): the user's permission rows at read or write,
 * and when the call came with an API token, only the token's items and the areas its scope reads,
 * each at the lower of the two levels. Every query that shows a caller more than one item (the
 * lists, the menu, the activity log, the expiry list, the dashboard's counts) starts from
 * `visibleRows` or asks `seesItem`; an opener's per-item map is cut by `withinScope`, the same rule
 * in memory.
 */
import { AREAS, type Area, type Level, lowerLevel, type PermissionMap } from '@atalaya/contract';
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../../store/schema.ts';
import type { Caller, TokenGrant } from './caller.ts';

const VISIBLE: Level[] = ['read', 'write'];

/** The areas a token's scope reads or writes: a token never sees another one, whatever its user holds. */
const scopeAreas = (grant: TokenGrant) => AREAS.filter((area) => lowerLevel(grant.scope[area], 'read') === 'read');

/** The areas among `areas` the caller may be shown; every area for a session. No area is named '', so an empty cut matches nothing. */
function areasFor(caller: Caller, areas: readonly Area[] | undefined): readonly string[] | undefined {
  if (!caller.token) return areas;
  const scoped = scopeAreas(caller.token).filter((area) => !areas || areas.includes(area));
  return scoped.length ? scoped : [''];
}

/** The token's items, or undefined when it has no item limit (or the caller is a session). No item has id 0. */
const itemsFor = (caller: Caller) => (caller.token?.items ? (caller.token.items.length ? caller.token.items : [0]) : undefined);

/**
 * The caller's visible permission rows as `p` (permission: user_id, item_id, area, level), of the
 * given areas or all; consumers select and group what they need. Every row is one the caller may
 * read: what a token may write is decided per item by the opener (`withinScope`). Served by the
 * permission key (user_id, item_id, area).
 */
export function visibleRows(db: Kysely<Database>, caller: Caller, areas?: readonly Area[]) {
  const areaCut = areasFor(caller, areas);
  const itemCut = itemsFor(caller);
  return db
    .selectFrom('permission as p')
    .where('p.user_id', '=', caller.id)
    .where('p.level', 'in', VISIBLE)
    .$if(areaCut !== undefined, (q) => q.where('p.area', 'in', areaCut!))
    .$if(itemCut !== undefined, (q) => q.where('p.item_id', 'in', itemCut!));
}

/**
 * The caller sees the item in `itemColumn` of an outer query, on the area in `area` (a column of
 * that query) or on any of a list of areas: a correlated probe of the permission key per row. A
 * token's item limit is also put on the outer column, so the outer table's index can serve it.
 */
export function seesItem<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  db: Kysely<Database>,
  caller: Caller,
  itemColumn: string,
  area: { column: string } | readonly Area[],
): Expression<SqlBool> {
  const rows = visibleRows(db, caller, 'column' in area ? undefined : area)
    .select('p.item_id')
    .where('p.item_id', '=', sql.ref<number>(itemColumn))
    .$if('column' in area, (q) => q.where('p.area', '=', sql.ref<string>((area as { column: string }).column)));
  const itemCut = itemsFor(caller);
  const probe = eb.exists(rows) as Expression<SqlBool>;
  if (itemCut === undefined) return probe;
  return eb.and([sql<SqlBool>`${sql.ref(itemColumn)} IN (${sql.join(itemCut)})`, probe]);
}

/** A token's map on one item: each area at the lower of the user's and the scope's level (the in-memory form of `visibleRows`). */
export function withinScope(grant: TokenGrant, itemId: number, map: PermissionMap): PermissionMap | null {
  if (grant.items !== null && !grant.items.includes(itemId)) return null;
  const out: PermissionMap = {};
  for (const area of AREAS) {
    const level = lowerLevel(map[area], grant.scope[area]);
    if (level !== 'disabled') out[area] = level;
  }
  return Object.keys(out).length ? out : null;
}
