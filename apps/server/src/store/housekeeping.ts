import type { Transaction } from 'kysely';
import { now, type Store } from './db.ts';
import { EXCLUSIVE, runExclusive } from './exclusive.ts';
import type { Database } from './schema.ts';

const DAY = 86_400;

/**
 * One round of clean-ups: menu notices older than an hour (sockets only look back seconds), spent
 * captcha signatures past their expiry, and activity-log lines older than the retention setting
 * (the log stays small enough for its indexes to answer the Activity page at once).
 */
export async function cleanUp(trx: Transaction<Database>, activityRetentionDays: number, t = now()) {
  await trx
    .deleteFrom('notice')
    .where('at', '<', t - 3600)
    .execute();
  await trx.deleteFrom('used_challenge').where('expires_at', '<', t).execute();
  await trx
    .deleteFrom('audit_event')
    .where('at', '<', t - activityRetentionDays * DAY)
    .execute();
}

/** The periodic clean-ups of a server process, run by one process at a time however many share the store. Answers a stop function. */
export function startHousekeeping(store: Store, activityRetentionDays: number, log: (err: unknown) => void, intervalMs = 60_000) {
  const clean = (trx: Transaction<Database>) => cleanUp(trx, activityRetentionDays);
  const timer = setInterval(() => void runExclusive(store, EXCLUSIVE.housekeeping, clean).catch(log), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
