import type { Transaction } from 'kysely';
import type { Config } from '../../config/config.ts';
import { emitEvent } from '../../kernel/events.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { enqueue } from '../../outbox/outbox.ts';
import type { Schedule } from '../../scheduler.ts';
import type { Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';

/** The outbox job that measures one service's usage; it carries the item id only. */
export const USAGE_JOB = 'service.usage.measure';

/** Queues a measurement of the service's usage (on demand, or by the schedule). */
export const enqueueUsage = (db: Store | Transaction<Database>, itemId: number) => enqueue(db, USAGE_JOB, { itemId }, itemId);

/** The share of a quota from which the operator hears `quota.nearly_full`. */
export const NEARLY_FULL = 0.9;

/**
 * Whether a measurement crossed the threshold: the operator hears it once when it fills up, not
 * at every measurement while it stays full (it hears again after it went down and filled again).
 * A limit of 0 is no limit.
 */
const crossed = (was: number, used: number, limit: number) => limit > 0 && used >= limit * NEARLY_FULL && was < limit * NEARLY_FULL;

/**
 * Measures a hosting service where its data lives, and stores the figures with the time they were
 * measured: web space from its web root on disk, each mailbox from the mail server, each database
 * from the database server; the service's database space is their sum.
 */
export async function measureUsage(runtime: Runtime, itemId: number, webRootOf: (reference: string) => string) {
  const { store: db, drivers } = runtime;
  const service = await db.selectFrom('service').select(['item_id', 'kind']).where('item_id', '=', itemId).executeTakeFirst();
  if (!service) return;
  const { reference } = await db.selectFrom('item').select('reference').where('id', '=', itemId).executeTakeFirstOrThrow();
  const [accounts, databases] = await Promise.all([
    db.selectFrom('mail_account').select(['id', 'name', 'quota', 'used']).where('item_id', '=', itemId).where('deleting', '=', 0).execute(),
    db.selectFrom('service_database').select(['id', 'name']).where('item_id', '=', itemId).where('deleting', '=', 0).execute(),
  ]);
  const [web, mail, sizes] = await Promise.all([
    service.kind === 'normal' ? drivers.web.spaceUsed({ reference, webRoot: webRootOf(reference) }) : Promise.resolve(0),
    // Nothing to ask for, nothing asked: a node without a mail or database role has no such driver.
    accounts.length ? drivers.mail.usage(accounts.map((a) => `${a.name}@${reference}`)) : Promise.resolve({} as Record<string, number>),
    databases.length ? drivers.databases.sizes(databases.map((d) => d.name)) : Promise.resolve({} as Record<string, number>),
  ]);
  const now = Math.floor(Date.now() / 1000);
  const before = await db
    .selectFrom('service')
    .select(['used_space_web', 'used_space_databases', 'limit_space_web', 'limit_space_databases'])
    .where('item_id', '=', itemId)
    .executeTakeFirstOrThrow();
  await db.transaction().execute(async (trx) => {
    const nearlyFull = (quota: string, was: number, used: number, limit: number, extra: Record<string, unknown> = {}) =>
      crossed(was, used, limit) ? emitEvent(trx, 'quota.nearly_full', { reference, quota, used, limit, ...extra, at: now }) : undefined;
    for (const account of accounts) {
      const used = mail[`${account.name}@${reference}`];
      if (used === undefined) continue;
      await trx.updateTable('mail_account').set({ used }).where('id', '=', account.id).execute();
      await nearlyFull('mailbox', Number(account.used), used, Number(account.quota), { address: `${account.name}@${reference}` });
    }
    for (const database of databases) {
      const used = sizes[database.name];
      if (used !== undefined) await trx.updateTable('service_database').set({ used }).where('id', '=', database.id).execute();
    }
    const databaseSpace = databases.reduce((sum, d) => sum + (sizes[d.name] ?? 0), 0);
    await trx
      .updateTable('service')
      .set({ used_space_web: web, used_space_databases: databaseSpace, usage_measured_at: now })
      .where('item_id', '=', itemId)
      .execute();
    await nearlyFull('web', Number(before.used_space_web), web, Number(before.limit_space_web));
    await nearlyFull('databases', Number(before.used_space_databases), databaseSpace, Number(before.limit_space_databases));
  });
}

/**
 * Queues a measurement for each service whose figures are older than `minutes` (or were never
 * measured) and that has none waiting. Run by the schedule in one process at a time, so several
 * processes sharing a store queue a service once. Answers how many it queued.
 */
export async function queueDueUsage(trx: Transaction<Database>, minutes: number) {
  const before = Math.floor(Date.now() / 1000) - minutes * 60;
  const due = await trx
    .selectFrom('service')
    .select('item_id')
    .where((eb) => eb.or([eb('usage_measured_at', 'is', null), eb('usage_measured_at', '<', before)]))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('job')
            .select('job.id')
            .whereRef('job.item_id', '=', 'service.item_id')
            .where('job.kind', '=', USAGE_JOB)
            .where('job.status', 'in', ['pending', 'running']),
        ),
      ),
    )
    .execute();
  for (const { item_id } of due) await enqueueUsage(trx, item_id);
  return due.length;
}

/**
 * The scheduled measurement, every `hosting.usageRefreshMinutes` (looking every 10 minutes at
 * most, from the start on; 0: only on demand).
 */
export function usageSchedule(config: Config): Schedule {
  const minutes = config.hosting.usageRefreshMinutes;
  return {
    name: 'usage-measurement',
    everyMs: Math.min(minutes, 10) * 60_000,
    firstAfterMs: 0,
    run: (trx) => queueDueUsage(trx, minutes),
  };
}
