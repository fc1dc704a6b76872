import { randomBytes } from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';
import type { Config } from '../../config/config.ts';
import { hashSecret } from '../../secrets.ts';
import { now, type Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { factorRequired } from '../factors/required.ts';
import type { SessionUser, TokenGrant } from '../permission/caller.ts';

export const SESSION_COOKIE = 'atalaya_sid';

/** Starts a fresh session (a new id at every sign-in) and answers the cookie token. */
export async function createSession(store: Store, userId: number, ip = ''): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const t = now();
  await store
    .insertInto('session')
    // The store keeps only a hash of the 256-bit token, so a leaked store holds no live sessions.
    .values({ id: hashSecret(token), user_id: userId, created_at: t, last_seen_at: t, ip })
    .execute();
  return token;
}

/** The user and realm columns a signed-in caller is read with, by session or by API token. */
export const CALLER_COLUMNS = [
  'user.id',
  'user.realm_id',
  'realm.name as realm_name',
  'user.username',
  'user.language',
  'user.theme',
  'user.color',
  'user.disabled',
  'realm.disabled as realm_disabled',
  'realm.require_second_factor',
] as const;

/** Whether the user has a second factor (a realm that requires one leads a user without to enrol). */
export const hasFactor = (eb: ExpressionBuilder<Database, 'user'>) =>
  eb.exists(eb.selectFrom('second_factor').select('second_factor.id').whereRef('second_factor.user_id', '=', 'user.id')).as('has_factor');

interface CallerRow {
  id: number;
  require_second_factor: number | boolean;
  has_factor: unknown;
  realm_id: number;
  realm_name: string;
  username: string;
  language: string;
  theme: string;
  color: string;
}

/** The caller as handlers see it, from the CALLER_COLUMNS of its row. */
export const callerOf = (config: Config, row: CallerRow, sessionId: string, token?: TokenGrant): SessionUser => ({
  id: row.id,
  realmId: row.realm_id,
  realmName: row.realm_name,
  username: row.username,
  language: row.language,
  theme: row.theme,
  color: row.color,
  sessionId,
  mustEnrol: !row.has_factor && factorRequired(config, { name: row.realm_name, require_second_factor: row.require_second_factor }),
  ...(token ? { token } : {}),
});

const readSession = (store: Store, id: string) =>
  store
    .selectFrom('session')
    .innerJoin('user', 'user.id', 'session.user_id')
    .innerJoin('realm', 'realm.id', 'user.realm_id')
    .select(['session.created_at', 'session.last_seen_at', ...CALLER_COLUMNS])
    .select(hasFactor)
    .where('session.id', '=', id)
    .executeTakeFirst();

/** A session row as read, plus `stored_seen_at`: the last use this process knows the store holds. */
export type SessionRow = NonNullable<Awaited<ReturnType<typeof readSession>>> & { stored_seen_at: number };

const isExpired = (row: SessionRow, config: Config, t: number) =>
  t - row.last_seen_at > config.session.idleMinutes * 60 || t - row.created_at > config.session.absoluteHours * 3600;

/**
 * How a process keeps the last use of its sessions exact without a write per request. Each use is
 * kept in memory (`last_seen_at` of the cached row) and in `pending`; the store gets it at once
 * when what it holds is `writeAfter` seconds old, otherwise at the next `flush` (every
 * `flushEvery` seconds). A use not yet in the store is thus less than `writeAfter` seconds after
 * the store's value and at most `flushEvery` seconds old: with both under half the idle time-out,
 * a session whose store value looks idle has no pending use in any process, and the time-out
 * counts from the true last use (docs/decisions/015-hardening.md).
 */
export interface SessionTouches {
  pending: Map<string, number>;
  writeAfter: number;
  flushEvery: number;
}

export function sessionTouches(config: Config): SessionTouches {
  const quarter = Math.max(1, Math.floor((config.session.idleMinutes * 60) / 4));
  return { pending: new Map(), writeAfter: Math.min(60, quarter), flushEvery: Math.min(30, quarter) };
}

/** Writes the pending uses; a later use another process wrote is never moved back. */
export async function flushTouches(store: Store, touches: SessionTouches) {
  const pending = [...touches.pending];
  touches.pending.clear();
  for (const [id, at] of pending) {
    await store.updateTable('session').set({ last_seen_at: at }).where('id', '=', id).where('last_seen_at', '<', at).execute();
  }
}

/**
 * The live session of a token, within the idle and absolute time-outs, counted from its last use.
 * `cached` holds rows read before: one that looks expired is read again, since another server
 * process may have kept it alive. `touches` records the use (see SessionTouches).
 */
export async function findSession(
  store: Store,
  config: Config,
  token: string | undefined,
  cached: Map<string, SessionRow> = new Map(),
  touches: SessionTouches = sessionTouches(config),
): Promise<SessionUser | null> {
  if (!token || token.length > 100) return null;
  const id = hashSecret(token);
  const t = now();
  let row = cached.get(id);
  if (!row || isExpired(row, config, t)) {
    const read = await readSession(store, id);
    // A use of this process still waiting for its write is as good as a stored one.
    row = read && { ...read, stored_seen_at: read.last_seen_at, last_seen_at: Math.max(read.last_seen_at, touches.pending.get(id) ?? 0) };
    if (row) cached.set(id, row);
  }
  if (!row) return null;
  if (isExpired(row, config, t) || row.disabled || row.realm_disabled) {
    cached.delete(id);
    touches.pending.delete(id);
    await store.deleteFrom('session').where('id', '=', id).execute();
    return null;
  }
  row.last_seen_at = Math.max(row.last_seen_at, t);
  if (t - row.stored_seen_at >= touches.writeAfter) {
    await store.updateTable('session').set({ last_seen_at: t }).where('id', '=', id).where('last_seen_at', '<', t).execute();
    row.stored_seen_at = t;
    touches.pending.delete(id);
  } else if (t > row.stored_seen_at) {
    touches.pending.set(id, t);
  }
  return callerOf(config, row, id);
}

export const deleteSession = (store: Store, sessionId: string) => store.deleteFrom('session').where('id', '=', sessionId).execute();

export const deleteUserSessions = (store: Store, userId: number) => store.deleteFrom('session').where('user_id', '=', userId).execute();
