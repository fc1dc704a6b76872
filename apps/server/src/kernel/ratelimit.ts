import { sql } from 'kysely';
import { now, type Store } from '../store/db.ts';

/** A fixed window of at most `max` counted events per key, kept in the store so every process shares it. */
export interface Limit {
  key: string;
  max: number;
  windowSeconds: number;
}

/** An attempt counted against a limit, before anything was checked. */
export interface Slot {
  limit: Limit;
  /** Seconds until the key may be tried again; 0 when this attempt is within the limit. */
  wait: number;
  /** The window the attempt was counted in, so giving it back never touches a later one. */
  resetAt: number;
}

/**
 * Counts one attempt and answers whether it is within the limit, in one atomic statement: the
 * count comes before the check, so attempts arriving at once (from any process sharing the
 * store) each see the ones before them and no more than `max` go through in a window. A window
 * that has passed starts again at 1, so no one is locked out for ever.
 */
export async function takeSlot(store: Store, limit: Limit): Promise<Slot> {
  const t = now();
  const row = await store
    .insertInto('counter')
    .values({ key: limit.key, hits: 1, reset_at: t + limit.windowSeconds })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`CASE WHEN counter.reset_at <= ${t} THEN 1 ELSE counter.hits + 1 END`,
        reset_at: sql<number>`CASE WHEN counter.reset_at <= ${t} THEN ${t + limit.windowSeconds} ELSE counter.reset_at END`,
      }),
    )
    .returning(['hits', 'reset_at'])
    .executeTakeFirstOrThrow();
  const hits = Number(row.hits);
  const resetAt = Number(row.reset_at);
  if (hits === 1) {
    // A new window: windows long past are of no use to anyone, and a small table keeps this cheap.
    await store
      .deleteFrom('counter')
      .where('reset_at', '<', t - 86400)
      .execute();
  }
  return { limit, wait: hits > limit.max ? Math.max(1, resetAt - t) : 0, resetAt };
}

/** Gives an attempt back: it turned out not to be one the limit counts (a success, a refused captcha). */
export async function giveBack(store: Store, slot: Slot) {
  await store
    .updateTable('counter')
    .set({ hits: sql<number>`hits - 1` })
    .where('key', '=', slot.limit.key)
    .where('reset_at', '=', slot.resetAt)
    .where('hits', '>', 0)
    .execute();
}

/**
 * Takes a slot of each limit in turn, the narrowest first; at the first one that is over, gives
 * back the ones already taken (the attempt is refused unchecked, so it counts for none of them)
 * and answers that limit's wait. 0: go ahead. In turn, not at once: attempts refused by the
 * narrow limit (one user's flood) must never fill the wide one (the realm's) and refuse, in a
 * race, an attempt the narrow limit let through.
 */
export async function takeSlots(store: Store, limits: Limit[]): Promise<{ slots: Slot[]; wait: number }> {
  const slots: Slot[] = [];
  for (const limit of limits) {
    const slot = await takeSlot(store, limit);
    if (slot.wait > 0) {
      await Promise.all(slots.map((taken) => giveBack(store, taken)));
      return { slots: [], wait: slot.wait };
    }
    slots.push(slot);
  }
  return { slots, wait: 0 };
}

export const clearCounter = (store: Store, key: string) => store.deleteFrom('counter').where('key', '=', key).execute();

/** Whole minutes to wait, at least 1, for the translated "try again in N minutes". */
export const minutesFor = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));

const WINDOW = 15 * 60;
/** Sign-in failures: per canonical realm and user (an attacker's guesses at one account), and per IP. */
export const LOGIN_LIMITS = {
  user: (realm: string, username: string): Limit => ({ key: `login:user:${realm}/${username}`, max: 5, windowSeconds: WINDOW }),
  ip: (ip: string): Limit => ({ key: `login:ip:${ip}`, max: 20, windowSeconds: WINDOW }),
};
/** Wrong second-factor codes at sign-in, per user: the second step is guessed no faster than passwords. */
export const secondFactorLimit = (userId: number): Limit => ({ key: `login2:user:${userId}`, max: 5, windowSeconds: WINDOW });
/** Wrong current passwords on change: a stolen session must not become a password oracle. */
export const passwordLimit = (userId: number): Limit => ({ key: `changepass:user:${userId}`, max: 5, windowSeconds: WINDOW });
/** Messages from the public contact form, per IP. */
export const contactLimit = (ip: string): Limit => ({ key: `contact:ip:${ip}`, max: 5, windowSeconds: 3600 });
/** Messages from the signed-in contact page: per user, and per realm so that many users cannot add up to a flood. */
export const CONTACT_MAIL_LIMITS = {
  user: (userId: number): Limit => ({ key: `contactmail:user:${userId}`, max: 5, windowSeconds: 3600 }),
  realm: (realmId: number): Limit => ({ key: `contactmail:realm:${realmId}`, max: 20, windowSeconds: 3600 }),
};
