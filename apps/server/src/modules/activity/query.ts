import { LIMITS } from '@atalaya/contract';
import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type { Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import type { Caller } from '../permission/caller.ts';
import { seesItem } from '../permission/visible.ts';

const DAY = 86_400;
const startOf = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

export interface ActivityFilters {
  item?: number;
  area?: string;
  /** A username, a token's name, or `cli`. */
  actor?: string;
  /** Inclusive days, YYYY-MM-DD, UTC. */
  from?: string;
  to?: string;
}

type Events = SelectQueryBuilder<Database & { e: Database['audit_event']; u: Database['user'] }, 'e' | 'u', object>;
type Eb = ExpressionBuilder<Database & { e: Database['audit_event']; u: Database['user'] }, 'e' | 'u'>;

/** The log with its actor's user row, narrowed by the filters; each filter has an index behind it (migration 0015). */
export function filteredEvents(store: Store, filters: ActivityFilters): Events {
  let query = store.selectFrom('audit_event as e').leftJoin('user as u', 'u.id', 'e.user_id') as unknown as Events;
  if (filters.item !== undefined) query = query.where('e.item_id', '=', filters.item);
  if (filters.area) query = query.where('e.area', '=', filters.area);
  if (filters.from) query = query.where('e.at', '>=', startOf(filters.from));
  if (filters.to) query = query.where('e.at', '<', startOf(filters.to) + DAY);
  const actor = filters.actor?.trim();
  if (actor === 'cli') query = query.where('e.actor', '=', 'cli');
  else if (actor)
    query = query.where((eb: Eb) =>
      eb.or([eb.and([eb('e.actor', '=', 'user'), eb('u.username', '=', actor.toLowerCase())]), eb('e.token_name', '=', actor)]),
    );
  return query;
}

/**
 * What a caller may read of the log: their realm's events on an item and area of their visible set
 * (modules/permission/visible.ts), and, signed in with a session, their own events that belong to
 * no item (sign-ins, password, preferences). A token reads no itemless event: those are the
 * account's, which no scope covers, and they carry the user's addresses and browsers. Another
 * user's sign-ins stay private: no permission area of this panel makes a user the realm's
 * administrator (decision 023).
 */
export function visibleTo(store: Store, query: Events, caller: Caller & { realmId: number }): Events {
  return query
    .where('e.realm_id', '=', caller.realmId)
    .where((eb: Eb) =>
      eb.or([
        eb.and([eb('e.item_id', 'is not', null), seesItem(eb, store, caller, 'e.item_id', { column: 'e.area' })]),
        ...(caller.token ? [] : [eb.and([eb('e.item_id', 'is', null), eb('e.user_id', '=', caller.id)])]),
      ]),
    );
}

const COLUMNS = [
  'e.id',
  'e.at',
  'e.realm_id',
  'e.actor',
  'e.token_id',
  'e.token_name',
  'u.username',
  'e.ip',
  'e.agent',
  'e.item_id',
  'e.reference',
  'e.area',
  'e.action',
  'e.outcome',
  'e.changes',
  'e.detail',
] as const;

/** One page of events, newest first, and how many match in all. */
export async function eventPage(query: Events, page: number) {
  const [rows, count] = await Promise.all([
    query
      .select(COLUMNS)
      .orderBy('e.at', 'desc')
      .orderBy('e.id', 'desc')
      .limit(LIMITS.pageSize)
      .offset((page - 1) * LIMITS.pageSize)
      .execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Every matching event, oldest first, in batches (the operator's export of a long log). */
export async function* allEvents(query: Events, batch = 1000) {
  let after = 0;
  for (;;) {
    const rows = await query.select(COLUMNS).where('e.id', '>', after).orderBy('e.id').limit(batch).execute();
    yield* rows;
    if (rows.length < batch) return;
    after = rows.at(-1)!.id;
  }
}

export type EventRow = Awaited<ReturnType<typeof eventPage>>['rows'][number];
