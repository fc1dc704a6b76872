import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ApiError, FieldErrors } from '../../http/errors.ts';
import { requestLanguage } from '../../http/language.ts';
import { route } from '../../http/route.ts';
import { onItemNode } from '../../nodes/remote.ts';
import { doneBackupOf, lockService } from './access.ts';
import { queueBackup, queueRestore } from './jobs.ts';
import { toBackup, toRestore } from './present.ts';
import { realmRepository } from './repository.ts';
import { backupDownload, driverRefusal } from './serve.ts';
import { nightlyTime, startOfDay } from './timing.ts';

/** A service's backups: /service/{id}/backups/…, each backup a restic snapshot per part in the realm's repository. */
export default async function backupsRoutes(app: FastifyInstance) {
  const { store, config, secrets, drivers } = app.runtime;
  const runtime = app.runtime;
  // Each row with its job's progress, which the screen polls.
  const backupRows = () =>
    store.selectFrom('backup').leftJoin('job', 'job.id', 'backup.job_id').selectAll('backup').select('job.progress as job_progress');
  const restoreRows = () =>
    store
      .selectFrom('backup_restore')
      .leftJoin('job', 'job.id', 'backup_restore.job_id')
      .selectAll('backup_restore')
      .select('job.progress as job_progress');
  const dayStart = () => Math.floor(startOfDay(new Date()).getTime() / 1000);
  const customerToday = (db: typeof store, itemId: number) =>
    db
      .selectFrom('backup')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('item_id', '=', itemId)
      .where('reason', '=', 'customer')
      .where('created_at', '>=', dayStart())
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  const repoOf = async (itemId: number) => {
    const item = await store.selectFrom('item').select('realm_id').where('id', '=', itemId).executeTakeFirstOrThrow();
    return realmRepository(store, config, secrets, item.realm_id);
  };

  route(app, endpoints.backups.list, async (request) => {
    const { itemId } = request.access;
    const backups = await backupRows()
      .where('backup.item_id', '=', itemId)
      .where('backup.forgotten_at', 'is', null)
      .orderBy('backup.created_at', 'desc')
      .orderBy('backup.id', 'desc')
      .limit(200)
      .execute();
    const restores = await restoreRows()
      .where('backup_restore.item_id', '=', itemId)
      .orderBy('backup_restore.id', 'desc')
      .limit(50)
      .execute();
    return {
      data: {
        backups: backups.map(toBackup),
        restores: restores.map(toRestore),
        schedule: {
          time: nightlyTime(itemId, config.backups),
          perDay: config.backups.perDay,
          usedToday: await customerToday(store, itemId),
        },
        retention: { ...config.backups.keep },
      },
    };
  });

  route(app, endpoints.backups.create, async (request) => {
    const { itemId } = request.access;
    const { perDay } = config.backups;
    const made = await store.transaction().execute(async (trx) => {
      await lockService(trx, store.kind, itemId);
      const open = await trx
        .selectFrom('backup')
        .select('id')
        .where('item_id', '=', itemId)
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirst();
      if (open) throw new ApiError(409, 'backups.running');
      if ((await customerToday(trx as unknown as typeof store, itemId)) >= perDay)
        throw new ApiError(429, 'backups.per_day', { limit: perDay });
      return queueBackup(trx, itemId, 'customer');
    });
    const row = await backupRows().where('backup.id', '=', made.id).executeTakeFirstOrThrow();
    return { data: { backup: toBackup(row) }, info: [{ key: 'backups.queued' }], job: made.job };
  });

  route(app, endpoints.backups.files, async (request) => {
    const { parts } = await doneBackupOf(request);
    const repo = await repoOf(request.access.itemId);
    const entries = await onItemNode(runtime, request.access.itemId, () => drivers.backups.list(repo, parts, request.query.path)).catch(
      driverRefusal,
    );
    return { data: { path: request.query.path, entries } };
  });

  route(app, endpoints.backups.download, async (request, reply) => {
    const { row, parts } = await doneBackupOf(request);
    const repo = await repoOf(request.access.itemId);
    const stream = await backupDownload(runtime, request.access.itemId, repo, parts, request.query.path).catch(driverRefusal);
    const name = request.query.path.split('/').filter(Boolean).at(-1) ?? request.access.reference;
    const day = (row.started_at ? new Date(row.started_at * 1000) : new Date()).toISOString().slice(0, 10);
    return reply
      .header('content-type', 'application/gzip')
      .header('content-disposition', `attachment; filename="${name.replace(/[^\w.@-]/g, '_')}-${day}.tar.gz"`)
      .send(stream);
  });

  route(app, endpoints.backups.restore, async (request) => {
    const { itemId, service } = request.access;
    const { part, path, target } = request.body;
    if (part === 'zone' && target === 'copy') throw FieldErrors.one('target', 'backups.zone_copy');
    const { row, parts } = await doneBackupOf(request);
    if (!parts.some((p) => p.part === part)) throw FieldErrors.one('part', 'backups.part_missing');
    const made = await store.transaction().execute(async (trx) => {
      await lockService(trx, store.kind, itemId);
      const running = await trx
        .selectFrom('backup_restore')
        .select('id')
        .where('item_id', '=', itemId)
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirst();
      if (running) throw new ApiError(409, 'backups.restore_running');
      if (part === 'db' && target === 'copy') {
        const count = await trx
          .selectFrom('service_database')
          .select(sql<number>`COUNT(*)`.as('n'))
          .where('item_id', '=', itemId)
          .where('deleting', '=', 0)
          .executeTakeFirstOrThrow();
        if (Number(count.n) >= service.limit_databases)
          throw FieldErrors.one('target', 'service.ddbb_limit', { limit: service.limit_databases });
      }
      return queueRestore(trx, { itemId, backupId: row.id, part, path, target, language: requestLanguage(request) });
    });
    const restore = await restoreRows().where('backup_restore.id', '=', made.id).executeTakeFirstOrThrow();
    return {
      data: { restore: toRestore(restore) },
      info: [{ key: 'backups.restore_queued' }],
      job: made.job,
    };
  });
}
