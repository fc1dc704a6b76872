import { sql } from 'kysely';
import type { Config } from '../../config/config.ts';
import { enqueue } from '../../outbox/outbox.ts';
import type { Schedule } from '../../scheduler.ts';
import { BACKUP_JOB, queueBackup } from './jobs.ts';
import { isDue, latestSlot, pruneSlot } from './timing.ts';

/** Nightly backups a round queues at most: a night missed while the panel was down is caught up a few at a time. */
export const BACKUPS_PER_ROUND = 20;

/**
 * `backups` (every minute): queues the nightly backup of each service whose minute of the night
 * has come (timing.ts), skipping one with a backup queued or running and one being terminated.
 * Off with `backups.enabled: false`.
 */
export function backupSchedule(config: Config): Schedule {
  const timing = config.backups;
  return {
    name: 'backups',
    everyMs: config.backups.enabled ? 60_000 : 0,
    async run(trx) {
      const at = new Date();
      const services = await trx
        .selectFrom('service')
        .innerJoin('item', 'item.id', 'service.item_id')
        .select([
          'item.id',
          'item.created_at',
          (eb) =>
            eb
              .selectFrom('backup')
              .select(sql<number>`MAX(created_at)`.as('m'))
              .whereRef('backup.item_id', '=', 'item.id')
              .where('backup.reason', '=', 'schedule')
              .as('last'),
        ])
        .where('item.terminate_at', 'is', null)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('backup')
                .select('backup.id')
                .whereRef('backup.item_id', '=', 'item.id')
                .where('backup.status', 'in', ['queued', 'running']),
            ),
          ),
        )
        .execute();
      const due = services
        .map((s) => ({ itemId: s.id, createdAt: Number(s.created_at), lastScheduled: s.last === null ? null : Number(s.last) }))
        .filter((s) => isDue(s, at, timing))
        .sort((a, b) => latestSlot(a.itemId, at, timing).getTime() - latestSlot(b.itemId, at, timing).getTime())
        .slice(0, BACKUPS_PER_ROUND);
      for (const service of due) await queueBackup(trx, service.itemId, 'schedule');
    },
  };
}

/**
 * `backup-prune` (hourly): once a day, after the night's window, a `restic prune` job per realm
 * repository (the panel's worker runs it: pruning reads and rewrites the repository, not a node's
 * data). A day's prune already queued is not queued again.
 */
export function backupPruneSchedule(config: Config): Schedule {
  return {
    name: 'backup-prune',
    everyMs: config.backups.enabled ? 3_600_000 : 0,
    async run(trx) {
      const slot = Math.floor(pruneSlot(new Date(), config.backups).getTime() / 1000);
      const queued = await trx
        .selectFrom('job')
        .select('id')
        .where('kind', '=', BACKUP_JOB.prune)
        .where('created_at', '>=', slot)
        .executeTakeFirst();
      if (queued) return;
      const realms = await trx.selectFrom('backup_repository').select('realm_id').orderBy('realm_id').execute();
      for (const { realm_id } of realms) await enqueue(trx, BACKUP_JOB.prune, { realm: realm_id });
    },
  };
}
