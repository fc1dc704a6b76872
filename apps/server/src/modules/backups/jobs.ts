import type { BackupReason, RestorablePart, RestoreTarget } from '@atalaya/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Runtime } from '../../kernel/runtime.ts';
import { enqueue, type JobHandlers, withTimeLimit } from '../../outbox/outbox.ts';
import { PermanentJobError } from '../../outbox/permanent.ts';
import { now } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { serviceJobs } from '../service/jobs.ts';
import { MOVE_JOB, moveJob } from '../service/move.ts';
import { moveCarry } from './carry.ts';
import { REBUILD_JOB, rebuildJob } from './rebuild.ts';
import { realmRepository } from './repository.ts';
import { runRestore } from './restore.ts';
import { failBackup, isLastAttempt, reasonOf, takeBackup } from './snapshot.ts';

/** The backups area's job kinds (their lanes in outbox/lanes.ts). */
export const BACKUP_JOB = { snapshot: 'backups.snapshot', restore: 'backups.restore', prune: 'backups.prune' } as const;

/** A backup or a restore moves gigabytes: an hour per attempt before the outbox gives it up and tries again. */
const LONG_SECONDS = 3600;

type Db = Kysely<Database> | Transaction<Database>;

/** Writes a backup's row and its job (on the item's node) in the caller's transaction. */
export async function queueBackup(trx: Db, itemId: number, reason: BackupReason) {
  const row = await trx
    .insertInto('backup')
    .values({ item_id: itemId, reason, status: 'queued', job_id: null, created_at: now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const job = await enqueue(trx, BACKUP_JOB.snapshot, { backup: row.id }, itemId);
  await trx.updateTable('backup').set({ job_id: job }).where('id', '=', row.id).execute();
  return { id: row.id, job };
}

/** Writes a restore's row and its job in the caller's transaction. */
export async function queueRestore(
  trx: Db,
  values: { itemId: number; backupId: number; part: RestorablePart; path: string; target: RestoreTarget; language: string },
) {
  const row = await trx
    .insertInto('backup_restore')
    .values({
      item_id: values.itemId,
      backup_id: values.backupId,
      part: values.part,
      path: values.path,
      target: values.target,
      status: 'queued',
      job_id: null,
      language: values.language,
      created_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const job = await enqueue(trx, BACKUP_JOB.restore, { restore: row.id }, values.itemId);
  await trx.updateTable('backup_restore').set({ job_id: job }).where('id', '=', row.id).execute();
  return { id: row.id, job };
}

const idIn = (payload: unknown, key: string) => Number((payload as Record<string, unknown>)[key]);

export function backupsJobs(runtime: Runtime): JobHandlers {
  const { store, config, secrets, drivers } = runtime;
  // A move and a rebuild apply the service on its new node through the service area's own handlers.
  const service = serviceJobs(runtime);
  return {
    /** A service move (service/move.ts), its data carried by a snapshot when both machines reach the repository (and the config allows). */
    [MOVE_JOB]: moveJob(runtime, service, moveCarry(runtime)),
    [REBUILD_JOB]: rebuildJob(runtime, service),

    [BACKUP_JOB.snapshot]: withTimeLimit(LONG_SECONDS, async (payload, job, progress, signal) => {
      const row = await store.selectFrom('backup').selectAll().where('id', '=', idIn(payload, 'backup')).executeTakeFirst();
      if (!row || row.status === 'done' || row.status === 'failed') return;
      await store
        .updateTable('backup')
        .set({ status: 'running', started_at: row.started_at ?? now() })
        .where('id', '=', row.id)
        .execute();
      try {
        await takeBackup(runtime, row, progress, signal);
      } catch (error) {
        const reason = reasonOf(error);
        if (!isLastAttempt(job, error)) {
          // Shown on the row while the outbox tries again.
          await store.updateTable('backup').set({ error: reason }).where('id', '=', row.id).execute();
          throw error;
        }
        await failBackup(runtime, row.id, reason);
        throw new PermanentJobError(reason);
      }
    }),

    [BACKUP_JOB.restore]: withTimeLimit(LONG_SECONDS, async (payload, job, progress, signal) => {
      const row = await store.selectFrom('backup_restore').selectAll().where('id', '=', idIn(payload, 'restore')).executeTakeFirst();
      if (!row || row.status === 'done' || row.status === 'failed') return;
      await store.updateTable('backup_restore').set({ status: 'running' }).where('id', '=', row.id).execute();
      try {
        const result = await runRestore(runtime, row, progress, signal);
        await store
          .updateTable('backup_restore')
          .set({ status: 'done', result, error: null, finished_at: now() })
          .where('id', '=', row.id)
          .execute();
      } catch (error) {
        const reason = reasonOf(error);
        const last = isLastAttempt(job, error);
        await store
          .updateTable('backup_restore')
          .set(last ? { status: 'failed', error: reason, finished_at: now() } : { error: reason })
          .where('id', '=', row.id)
          .execute();
        // The backup of what it would overwrite failed with it: that one is reported as failed too.
        const before = await store
          .selectFrom('backup_restore')
          .select('before_backup_id')
          .where('id', '=', row.id)
          .executeTakeFirstOrThrow();
        if (last && before.before_backup_id !== null) await failBackup(runtime, before.before_backup_id, reason);
        if (!last) throw error;
        throw new PermanentJobError(reason);
      }
    }),

    /** `restic prune` of one realm's repository: frees what the services' retention forgot. */
    [BACKUP_JOB.prune]: withTimeLimit(LONG_SECONDS, async (payload) => {
      const realmId = idIn(payload, 'realm');
      if (!(await store.selectFrom('backup_repository').select('realm_id').where('realm_id', '=', realmId).executeTakeFirst())) return;
      await drivers.backups.prune(await realmRepository(store, config, secrets, realmId));
    }),
  };
}
