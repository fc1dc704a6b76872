import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../../config/config.ts';
import { now, type Store } from '../../store/db.ts';

export const SESSION_COOKIE = 'atalaya_sid';

/** The signed-in user as every handler sees it. */
export interface SessionUser {
  id: number;
  realmId: number;
  realmName: string;
  username: string;
  language: string;
  theme: string;
  color: string;
  sessionId: string;
}

// The store keeps only a hash of the 256-bit token, so a leaked store holds no live sessions.
const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Starts a fresh session (a new id at every sign-in) and answers the cookie token. */
export async function createSession(store: Store, userId: number, ip = ''): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const t = now();
  await store
    .insertInto('session')
    .values({ id: hashToken(token), user_id: userId, created_at: t, last_seen_at: t, ip })
    .execute();
  return token;
}

const readSession = (store: Store, id: string) =>
  store
    .selectFrom('session')
    .innerJoin('user', 'user.id', 'session.user_id')
    .innerJoin('realm', 'realm.id', 'user.realm_id')
    .select([
      'session.created_at',
      'session.last_seen_at',
      'user.id',
      'user.realm_id',
      'realm.name as realm_name',
      'user.username',
      'user.language',
      'user.theme',
      'user.color',
      'user.disabled',
      'realm.disabled as realm_disabled',
    ])
    .where('session.id', '=', id)
    .executeTakeFirst();

export type SessionRow = NonNullable<Awaited<ReturnType<typeof readSession>>>;

const isExpired = (row: SessionRow, config: Config, t: number) =>
  t - row.last_seen_at > config.session.idleMinutes * 60 || t - row.created_at > config.session.absoluteHours * 3600;

/**
 * The live session of a token, within the idle and absolute time-outs; touched at most once a
 * minute. `cached` holds rows read before: one that looks expired is read again, since another
 * server process may have kept it alive.
 */
export async function findSession(
  store: Store,
  config: Config,
  token: string | undefined,
  cached?: Map<string, SessionRow>,
): Promise<SessionUser | null> {
  if (!token || token.length > 100) return null;
  const id = hashToken(token);
  const t = now();
  let row = cached?.get(id);
  if (!row || isExpired(row, config, t)) {
    row = await readSession(store, id);
    if (row) cached?.set(id, row);
  }
  if (!row) return null;
  if (isExpired(row, config, t) || row.disabled || row.realm_disabled) {
    cached?.delete(id);
    await store.deleteFrom('session').where('id', '=', id).execute();
    return null;
  }
  if (t - row.last_seen_at >= 60) {
    await store.updateTable('session').set({ last_seen_at: t }).where('id', '=', id).execute();
    row.last_seen_at = t;
  }
  return {
    id: row.id,
    realmId: row.realm_id,
    realmName: row.realm_name,
    username: row.username,
    language: row.language,
    theme: row.theme,
    color: row.color,
    sessionId: id,
  };
}

export const deleteSession = (store: Store, sessionId: string) =>
  store.deleteFrom('session').where('id', '=', sessionId).execute();

export const deleteUserSessions = (store: Store, userId: number) =>
  store.deleteFrom('session').where('user_id', '=', userId).execute();
