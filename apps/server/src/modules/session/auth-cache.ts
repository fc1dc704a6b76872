import type { Config } from '../../config/config.ts';
import { frozen } from '../../http/serializer.ts';
import { oncePerTurn } from '../../http/turn.ts';
import { compiledQuery } from '../../store/compiled.ts';
import type { Store } from '../../store/db.ts';
import type { SessionUser } from '../permission/caller.ts';
import { type ItemAccess, loadItemAccess } from '../permission/policy.ts';
import { withinScope } from '../permission/visible.ts';
import { findSession, flushTouches, type SessionRow, sessionTouches } from './sessions.ts';

const MAX_ENTRIES = 10_000;

/**
 * Sessions and permission maps kept in memory between requests, valid while the store's
 * `auth_version` stays the same. Triggers bump it on any change to sessions, users, realms, items
 * or permissions, from any process, so a revocation or a sign-out still applies on the next request.
 */
export function createAuthCache(store: Store, config: Config) {
  const sessions = new Map<string, SessionRow>();
  const access = new Map<string, ItemAccess | null>();
  const answers = new Map<string, Promise<unknown>>();
  let version = -1;
  // Last uses not yet in the store, written every few seconds so the idle time-out stays exact.
  const touches = sessionTouches(config);
  let flushing: Promise<void> = Promise.resolve();
  const flush = () => {
    flushing = flushing.then(() => flushTouches(store, touches)).catch(() => {});
    return flushing;
  };
  const timer = setInterval(flush, touches.flushEvery * 1000);
  timer.unref();
  const readVersion = compiledQuery(store, store.selectFrom('auth_version').select('version').where('id', '=', 1));

  const check = async () => {
    const current = Number((await readVersion(1))[0]?.version ?? 0);
    if (current !== version || sessions.size > MAX_ENTRIES || access.size > MAX_ENTRIES || answers.size > MAX_ENTRIES) {
      sessions.clear();
      access.clear();
      answers.clear();
      version = current;
    }
  };
  return {
    /**
     * Called once per request with a session or an API token, before any lookup: drops everything
     * if anything changed. The requests of one turn of the event loop share one read of the version
     * (`oncePerTurn`): every request it answers had arrived before the read, so a change committed
     * before a request arrived is still seen by it, and a request that arrives once the read has
     * started waits for the next one.
     */
    sync: oncePerTurn(check),
    session: (token: string | undefined) => findSession(store, config, token, sessions, touches),
    /** Writes the last uses still waiting (the timer does it every few seconds). */
    flush,
    /** Stops the timer and writes what is waiting: called when the app closes, before the store does. */
    async close() {
      clearInterval(timer);
      await flush();
    },
    /**
     * A signed-in read made of what `auth_version` watches only (the user, items, permissions, the
     * items' service and mail service rows, and their domains with contacts and name servers):
     * computed once per key until anything changes. A failed read is not kept. What is kept is
     * frozen, since every request that asks shares it; and so the answer's writer checks and writes
     * it only once (`http/serializer.ts`).
     */
    remember<T>(key: string, read: () => Promise<T>): Promise<T> {
      let answer = answers.get(key) as Promise<T> | undefined;
      if (!answer) {
        answer = read().then(frozen);
        answers.set(key, answer);
        answer.catch(() => answers.delete(key));
      }
      return answer;
    },
    /** The user's map on an item; with a token, cut down to its scope and items (the user's current map is the cache's). */
    async itemAccess(user: SessionUser, itemId: number): Promise<ItemAccess | null> {
      const key = `${user.id}:${itemId}`;
      if (!access.has(key)) access.set(key, await loadItemAccess(store, user, itemId));
      const found = access.get(key) ?? null;
      if (!found || !user.token) return found;
      const permissions = withinScope(user.token, itemId, found.permissions);
      return permissions && { ...found, permissions };
    },
  };
}

export type AuthCache = ReturnType<typeof createAuthCache>;

/** The part of a `remember` key that names the caller: what one user sees, cut down to a token's scope when it calls with one. */
export const callerKey = (user: SessionUser) => `${user.id}:${user.token?.id ?? 'session'}`;
