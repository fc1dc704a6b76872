import type { Transaction } from 'kysely';
import type { Schedule } from '../scheduler.ts';
import { now } from './db.ts';
import type { Database } from './schema.ts';

const DAY = 86_400;
/** How long an operator's Idempotency-Key answers a retry (a billing system retries within hours). */
export const IDEMPOTENCY_KEEP_DAYS = 7;

/**
 * One round of clean-ups: menu notices older than an hour (sockets only look back seconds), spent
 * captcha signatures past their expiry, and activity-log lines older than the retention setting
 * (the log stays small enough for its indexes to answer the Activity page at once), and the
 * operator API's idempotency keys once no billing system would still retry with them.
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
  await trx
    .deleteFrom('idempotency_key')
    .where('created_at', '<', t - IDEMPOTENCY_KEEP_DAYS * DAY)
    .execute();
}

/** The clean-ups as a schedule (runtime.ts's SCHEDULES): every minute, in one process at a time. */
export const housekeepingSchedule = (activityRetentionDays: number): Schedule => ({
  name: 'housekeeping',
  everyMs: 60_000,
  run: (trx) => cleanUp(trx, activityRetentionDays),
});
