import { sql } from 'kysely';
import { now, type Store } from '../../store/db.ts';

/** A fixed window of at most `max` counted events per key, kept in the store so every process shares it. */
export interface Limit {
  key: string;
  max: number;
  windowSeconds: number;
}

/** Seconds until the key may be tried again; 0 when it may be tried now. */
export async function blockedFor(store: Store, limit: Limit): Promise<number> {
  const row = await store.selectFrom('counter').select(['hits', 'reset_at']).where('key', '=', limit.key).executeTakeFirst();
  const t = now();
  if (!row || row.reset_at <= t || row.hits < limit.max) return 0;
  return row.reset_at - t;
}

/** Counts one event; a window that has passed starts again at 1, so no one is locked out for ever. */
export async function countEvent(store: Store, limit: Limit) {
  const t = now();
  // One atomic upsert: two processes counting at once cannot lose a hit.
  await store
    .insertInto('counter')
    .values({ key: limit.key, hits: 1, reset_at: t + limit.windowSeconds })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`CASE WHEN counter.reset_at <= ${t} THEN 1 ELSE counter.hits + 1 END`,
        reset_at: sql<number>`CASE WHEN counter.reset_at <= ${t} THEN ${t + limit.windowSeconds} ELSE counter.reset_at END`,
      }),
    )
    .execute();
  // Windows long past are of no use to anyone; keeping the table small keeps the check cheap.
  await store.deleteFrom('counter').where('reset_at', '<', t - 86400).execute();
}

export const clearCounter = (store: Store, key: string) => store.deleteFrom('counter').where('key', '=', key).execute();

/** Whole minutes to wait, at least 1, for the translated "try again in N minutes". */
export const minutesFor = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));

const WINDOW = 15 * 60;
/** Sign-in failures: per typed realm and user (an attacker's guesses at one account), and per IP. */
export const LOGIN_LIMITS = {
  user: (realm: string, username: string): Limit => ({ key: `login:user:${realm}/${username}`, max: 5, windowSeconds: WINDOW }),
  ip: (ip: string): Limit => ({ key: `login:ip:${ip}`, max: 20, windowSeconds: WINDOW }),
};
/** Wrong current passwords on change: a stolen session must not become a password oracle. */
export const passwordLimit = (userId: number): Limit => ({ key: `changepass:user:${userId}`, max: 5, windowSeconds: WINDOW });
/** Messages from the public contact form, per IP. */
export const contactLimit = (ip: string): Limit => ({ key: `contact:ip:${ip}`, max: 5, windowSeconds: 3600 });
