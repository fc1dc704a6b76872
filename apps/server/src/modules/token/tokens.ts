import { type ApiToken, AREAS, type Area, isAbove, isArea, LEVELS, type Level, type PermissionMap, TOKEN_PREFIX } from '@atalaya/contract';
import type { Kysely } from 'kysely';
import { now, type Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { visibleRows } from '../permission/visible.ts';
import { bearerView, mintToken } from './bearer.ts';

/** A token to create, already parsed (from the web form or the CLI). */
export interface TokenSpec {
  name: string;
  scope: PermissionMap;
  items: number[] | null;
  cidrs: string[];
  /** Unix seconds from which it stops working; null: never. */
  expiresAt: number | null;
}

/** A refusal of a token spec: the form field it belongs to and the message key. */
export interface SpecProblem {
  field: 'scope' | 'items' | 'expires';
  key: string;
}

/**
 * The highest level the user holds on each area, over the given items or all of theirs: a token's
 * scope may not go above it (its rights are capped by the user's current ones on every call anyway).
 */
export async function levelCeiling(store: Store, user: { id: number; realmId: number }, items: number[] | null = null) {
  const rows = await store
    .selectFrom('permission')
    .innerJoin('item', 'item.id', 'permission.item_id')
    .select(['permission.area', 'permission.level'])
    .where('permission.user_id', '=', user.id)
    .where('item.realm_id', '=', user.realmId)
    .$if(items !== null, (qb) => qb.where('permission.item_id', 'in', items?.length ? items : [0]))
    .execute();
  const ceiling = Object.fromEntries(AREAS.map((a) => [a, 'disabled'])) as Record<Area, Level>;
  for (const row of rows) {
    if (isArea(row.area) && isAbove(row.level as Level, ceiling[row.area])) ceiling[row.area] = row.level as Level;
  }
  return ceiling;
}

/** What is wrong with a spec for this user, or an empty list. */
export async function specProblems(store: Store, user: { id: number; realmId: number }, spec: TokenSpec): Promise<SpecProblem[]> {
  const problems: SpecProblem[] = [];
  if (spec.items !== null) {
    const visible = await visibleRows(store, { id: user.id })
      .innerJoin('item', 'item.id', 'p.item_id')
      .select('p.item_id')
      .distinct()
      .where('item.realm_id', '=', user.realmId)
      .where('p.item_id', 'in', spec.items.length ? spec.items : [0])
      .execute();
    // The scope's ceiling over items the user cannot see says nothing useful: this is the one problem.
    if (visible.length !== new Set(spec.items).size) return [{ field: 'items', key: 'account.token_items_unknown' }];
  }
  const ceiling = await levelCeiling(store, user, spec.items);
  if (AREAS.some((a) => isAbove(spec.scope[a], ceiling[a]))) problems.push({ field: 'scope', key: 'account.token_scope_above' });
  const t = now();
  const endOfToday = t - (t % 86_400) + 86_400;
  if (spec.expiresAt !== null && spec.expiresAt <= endOfToday) {
    problems.push({ field: 'expires', key: 'account.token_expiry_past' });
  }
  return problems;
}

/** Stores a checked spec and answers the token, which exists nowhere else from now on. */
export async function createToken(store: Store, userId: number, spec: TokenSpec) {
  const { token, columns } = mintToken(TOKEN_PREFIX, spec);
  const row = await store
    .insertInto('api_token')
    .values({
      ...columns,
      user_id: userId,
      name: spec.name,
      scope: JSON.stringify(spec.scope),
      items: spec.items === null ? null : JSON.stringify([...new Set(spec.items)].sort((a, b) => a - b)),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { token, id: row.id };
}

export const scopeOf = (text: string): PermissionMap => {
  const raw = JSON.parse(text) as Record<string, string>;
  return Object.fromEntries(
    Object.entries(raw).filter(([area, level]) => isArea(area) && (LEVELS as readonly string[]).includes(level)),
  ) as PermissionMap;
};
export const itemsOf = (text: string | null): number[] | null => (text === null ? null : (JSON.parse(text) as number[]));

/** The user's tokens as the list shows them (never the secret, which the store does not have). */
export async function listTokens(store: Store, userId: number): Promise<ApiToken[]> {
  const rows = await store.selectFrom('api_token').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  const ids = [...new Set(rows.flatMap((r) => itemsOf(r.items) ?? []))];
  const references = new Map(
    ids.length
      ? (await store.selectFrom('item').select(['id', 'reference']).where('id', 'in', ids).execute()).map((i) => [i.id, i.reference])
      : [],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    scope: Object.fromEntries(AREAS.map((a) => [a, scopeOf(r.scope)[a] ?? 'disabled'])) as Record<Area, Level>,
    // An item deleted since is gone from the list; the token still never reaches anything else.
    items: (itemsOf(r.items) ?? []).filter((id) => references.has(id)).map((id) => ({ id, reference: references.get(id)! })),
    ...bearerView(r),
    createdAt: r.created_at,
  }));
}

/** Deletes one of the user's tokens; false when they have none with that id. */
export async function revokeToken(store: Store, userId: number, id: number) {
  const result = await store.deleteFrom('api_token').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Deletes every token of the user, in the caller's transaction when it has one: what a password
 * change (the user's or the operator's), a reset of the second factors and a disabled account do,
 * so a token made from a stolen session does not outlive the recovery (decision 027). Answers how
 * many went.
 */
export async function revokeAllTokens(db: Kysely<Database>, userId: number) {
  const result = await db.deleteFrom('api_token').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
