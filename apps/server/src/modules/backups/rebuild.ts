import type { StoredPart } from '../../drivers/backups/interface.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { NodeError } from '../../nodes/nodes.ts';
import { enqueue, type JobHandler, type JobHandlers, withTimeLimit } from '../../outbox/outbox.ts';
import { PermanentJobError } from '../../outbox/permanent.ts';
import { now, type Store } from '../../store/db.ts';
import { applyOnNode, checkRoles, followNode, MOVE_JOB, receivingNode, type ServiceContents, serviceContents } from '../service/move.ts';
import { piecesIn, putBack, type WholePiece } from './carry.ts';
import { realmRepository } from './repository.ts';
import { isLastAttempt, partsOf, reasonOf } from './snapshot.ts';

/** One service of a lost node rebuilt on another from its backups (decision 064); holds the whole item. */
export const REBUILD_JOB = 'service.rebuild';

export interface RebuildPayload {
  itemId: number;
  /** The lost node: named for the record, never called. */
  lost: number;
  to: number;
}

/** A piece of the service, with the newest done backup that holds it (none: its data is lost). */
export interface PlannedPiece extends WholePiece {
  backupId: number | null;
  parts: StoredPart[];
}

/**
 * What a rebuild restores: the web root, each mailbox and each database the store holds, each from
 * the newest done backup holding it (a restore's own backup holds one part only, so pieces may come
 * from different backups). A piece no backup holds is listed with none.
 */
export async function rebuildPlan(store: Store, contents: ServiceContents): Promise<PlannedPiece[]> {
  const backups = await store
    .selectFrom('backup')
    .select(['id', 'parts'])
    .where('item_id', '=', contents.itemId)
    .where('status', '=', 'done')
    .where('forgotten_at', 'is', null)
    .orderBy('id', 'desc')
    .execute();
  const wanted: WholePiece[] = [
    ...(contents.service?.kind === 'normal' ? [{ part: 'web', path: '/' } as const] : []),
    ...contents.addresses.map((a) => ({ part: 'mail', path: `/${a}` }) as const),
    ...contents.databases.map((d) => ({ part: 'db', path: `/${d.name}` }) as const),
  ];
  const held = backups.map((b) => ({ id: b.id, parts: partsOf(b), pieces: [] as WholePiece[] }));
  for (const b of held) b.pieces = piecesIn(b.parts, contents);
  return wanted.map((w) => {
    const from = held.find((b) => b.pieces.some((p) => p.part === w.part && p.path === w.path));
    return { ...w, backupId: from?.id ?? null, parts: from?.parts ?? [] };
  });
}

/**
 * `node-restore <lost> --to <node>`: every service placed on the lost node is placed on the other,
 * its unfinished jobs with it (they apply there, before the rebuild, which re-applies everything
 * anyway), a move of it that can no longer run is failed, and one rebuild job is queued per
 * service; the lost node is left draining (no new services). All in one transaction. The lost
 * node's agent is never called: it is gone.
 */
export async function queueNodeRestore(store: Store, lostName: string, toName: string) {
  const lost = await store.selectFrom('node').selectAll().where('name', '=', lostName).where('state', '<>', 'removed').executeTakeFirst();
  if (!lost) throw new NodeError(`No node named ${lostName}`);
  const target = await receivingNode(store, toName);
  if (target.id === lost.id) throw new NodeError(`--to must name another node than ${lostName}`);
  const items = await store.selectFrom('item').select(['id', 'reference']).where('node_id', '=', lost.id).orderBy('reference').execute();
  for (const item of items) await checkRoles(store, item.id, target);
  return store.transaction().execute(async (trx) => {
    if (lost.state === 'active') await trx.updateTable('node').set({ state: 'draining' }).where('id', '=', lost.id).execute();
    const queued: { reference: string; job: number }[] = [];
    for (const item of items) {
      const unfinished = () => trx.updateTable('job').where('item_id', '=', item.id).where('status', 'in', ['pending', 'running']);
      // A move of it would read from or write to the lost node: it is superseded, and would hold the rebuild up for ever.
      await unfinished()
        .where('kind', '=', MOVE_JOB)
        .set({
          status: 'failed',
          last_error: `superseded by node-restore ${lostName} --to ${toName}`,
          lease_until: null,
          updated_at: now(),
        })
        .execute();
      await unfinished().where('node_id', '=', lost.id).set({ node_id: target.id, updated_at: now() }).execute();
      await trx.updateTable('item').set({ node_id: target.id }).where('id', '=', item.id).execute();
      const payload: RebuildPayload = { itemId: item.id, lost: lost.id, to: target.id };
      queued.push({ reference: item.reference, job: await enqueue(trx, REBUILD_JOB, payload, item.id, { nodeId: target.id }) });
    }
    return queued;
  });
}

/**
 * The rebuild of one service, run by the new node's worker: (1) the new node is given everything
 * the store holds for it, as a move's first step; (2) each piece is restored whole (`replace`)
 * from its newest backup through the new node's own backups driver, one restore row each (the
 * service's Backups screen lists them; a retry skips those done); (3) the zone's records follow it.
 * A piece that fails is retried with the job and, at the last attempt, reported failed with the
 * others listed; the records follow the service either way (the lost node answers nothing).
 */
export function rebuildJob(runtime: Runtime, handlers: JobHandlers): JobHandler {
  const { store, config, secrets } = runtime;
  return withTimeLimit(3600, async (raw, job, progress, signal) => {
    const { itemId, to } = raw as RebuildPayload;
    const contents = await serviceContents(store, itemId);
    await applyOnNode({ runtime, job, progress, signal, to, contents }, handlers);
    await progress(10);
    const plan = (await rebuildPlan(store, contents)).filter((p) => p.backupId !== null);
    const rows = () => store.selectFrom('backup_restore').selectAll().where('job_id', '=', job.id).execute();
    const made = await rows();
    for (const p of plan) {
      if (made.some((r) => r.part === p.part && r.path === p.path)) continue;
      await store
        .insertInto('backup_restore')
        .values({
          item_id: itemId,
          backup_id: p.backupId!,
          part: p.part,
          path: p.path,
          target: 'replace',
          status: 'queued',
          job_id: job.id,
          created_at: now(),
        })
        .execute();
    }
    const failed: string[] = [];
    const repo = await realmRepository(store, config, secrets, contents.realmId);
    const mine = await rows();
    for (const [i, row] of mine.entries()) {
      if (row.status === 'done') continue;
      signal.throwIfAborted();
      const piece = plan.find((p) => p.part === row.part && p.path === row.path);
      try {
        if (!piece) throw new Error('no backup holds it any more');
        await store.updateTable('backup_restore').set({ status: 'running' }).where('id', '=', row.id).execute();
        const { result } = await putBack(runtime, to, job.id, repo, piece.parts, piece);
        await store
          .updateTable('backup_restore')
          .set({ status: 'done', result, error: null, finished_at: now() })
          .where('id', '=', row.id)
          .execute();
      } catch (error) {
        if (error instanceof Error && error.name === 'AbortError') throw error;
        failed.push(`${row.part} ${row.path}: ${reasonOf(error)}`);
        const last = isLastAttempt(job);
        await store
          .updateTable('backup_restore')
          .set(last ? { status: 'failed', error: reasonOf(error), finished_at: now() } : { error: reasonOf(error) })
          .where('id', '=', row.id)
          .execute();
      }
      await progress(10 + Math.round((80 * (i + 1)) / mine.length));
    }
    await followNode(runtime, itemId, to, 'node-restore');
    if (failed.length === 0) return;
    if (isLastAttempt(job)) throw new PermanentJobError(`not restored: ${failed.join('; ')}`);
    throw new Error(`not restored yet: ${failed.join('; ')}`);
  });
}

/** What the operator reads of one rebuild: its job's end, and per piece restored, failed or lost (no backup). */
export async function rebuildReport(store: Store, job: number) {
  const row = await store.selectFrom('job').select(['status', 'payload', 'last_error']).where('id', '=', job).executeTakeFirstOrThrow();
  const { itemId } = JSON.parse(row.payload) as RebuildPayload;
  const restores = await store.selectFrom('backup_restore').selectAll().where('job_id', '=', job).orderBy('id').execute();
  const plan = await rebuildPlan(store, await serviceContents(store, itemId));
  const name = (p: { part: string; path: string }) =>
    p.part === 'web' ? 'web root' : `${p.part === 'mail' ? 'mailbox' : 'database'} ${p.path.slice(1)}`;
  return {
    status: row.status,
    error: row.last_error,
    restored: restores.filter((r) => r.status === 'done').map(name),
    failed: restores.filter((r) => r.status === 'failed').map((r) => `${name(r)} (${r.error})`),
    lost: plan.filter((p) => p.backupId === null && !restores.some((r) => r.part === p.part && r.path === p.path)).map(name),
  };
}
