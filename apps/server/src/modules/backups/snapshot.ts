import type { RestorablePart } from '@atalaya/contract';
import { BackupError, type SnapshotSpec, type StoredPart } from '../../drivers/backups/interface.ts';
import { emitEvent } from '../../kernel/events.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { PermanentJobError } from '../../outbox/permanent.ts';
import { now } from '../../store/db.ts';
import { realmRepository } from './repository.ts';
import { backupTarget, serviceTags, snapshotSpec } from './spec.ts';
import type { BackupRow } from './tables.ts';
import { forgottenRows } from './timing.ts';

/** Attempts a backup or a restore gets before it is reported failed: a repository down for minutes is retried, one down for long is news. */
export const BACKUP_ATTEMPTS = 3;

/** Whether this attempt is the last one the area gives a failure (then it is reported, not retried). */
export const isLastAttempt = (job: { attempts: number }, error?: unknown) =>
  error instanceof PermanentJobError || job.attempts + 1 >= BACKUP_ATTEMPTS;

/** A failure as the screen shows it: the driver's message key, else restic's own last words (cut). */
export function reasonOf(error: unknown): string {
  if (error instanceof BackupError) return error.key;
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 500);
}

export const partsOf = (row: { parts: string }) => JSON.parse(row.parts) as StoredPart[];

/** Keeps only the part of a spec a restore overwrites (its backup of what was there), with the settings. */
export function narrowSpec(spec: SnapshotSpec, keep: RestorablePart): SnapshotSpec {
  const { web, mail, db, zone, ...rest } = spec;
  const parts: Pick<SnapshotSpec, RestorablePart> = { web, mail, db, zone };
  return parts[keep] ? { ...rest, [keep]: parts[keep] } : rest;
}

/**
 * Retention runs after a nightly backup only, and not while a restore of the service is open:
 * restic's `--keep-daily` keeps the last snapshot of each day, so forgetting after a customer's or
 * a restore's own backup would drop the same day's earlier one, which the customer may be about to
 * restore from (a `replace` backs up first, then restores from the older backup).
 */
async function retentionMayRun(runtime: Runtime, row: BackupRow) {
  if (row.reason !== 'schedule') return false;
  const open = await runtime.store
    .selectFrom('backup_restore')
    .select('id')
    .where('item_id', '=', row.item_id)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return !open;
}

/**
 * Takes one backup: the realm's repository made if new, one snapshot per part, the row done with
 * what each part added; then (a nightly one) restic's retention over the service's snapshots, and
 * the rows whose snapshots it removed all marked forgotten (no longer listed).
 */
export async function takeBackup(
  runtime: Runtime,
  row: BackupRow,
  progress: (percent: number) => unknown,
  signal?: AbortSignal,
  only?: RestorablePart,
) {
  const { store, config, secrets, drivers } = runtime;
  const target = await backupTarget(store, row.item_id);
  const repo = await realmRepository(store, config, secrets, target.realm_id);
  const spec = await snapshotSpec(store, config, target);
  await drivers.backups.ensureRepository(repo);
  const { parts } = await drivers.backups.snapshot(repo, only ? narrowSpec(spec, only) : spec, progress, signal);
  await store
    .updateTable('backup')
    .set({
      status: 'done',
      parts: JSON.stringify(parts),
      added: parts.reduce((sum, p) => sum + p.added, 0),
      size: parts.reduce((sum, p) => sum + p.size, 0),
      error: null,
      finished_at: now(),
    })
    .where('id', '=', row.id)
    .execute();
  if (!(await retentionMayRun(runtime, row))) return;
  const { removed } = await drivers.backups.forget(repo, serviceTags(target), config.backups.keep);
  if (removed.length === 0) return;
  const kept = await store
    .selectFrom('backup')
    .select(['id', 'parts'])
    .where('item_id', '=', row.item_id)
    .where('status', '=', 'done')
    .where('forgotten_at', 'is', null)
    .execute();
  const gone = forgottenRows(
    kept.map((r) => ({ id: r.id, snapshots: partsOf(r).map((p) => p.snapshot) })),
    removed,
  );
  if (gone.length) await store.updateTable('backup').set({ forgotten_at: now() }).where('id', 'in', gone).execute();
}

/**
 * A backup that will not be tried again: failed with its reason, and told to the operator's
 * webhooks (`backup.failed`) in the same transaction; `npm run admin -- backups --failed` and the
 * customer's service screen show it.
 */
export async function failBackup(runtime: Runtime, backupId: number, reason: string) {
  await runtime.store.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('backup')
      .innerJoin('item', 'item.id', 'backup.item_id')
      .innerJoin('realm', 'realm.id', 'item.realm_id')
      .select(['backup.id', 'backup.reason', 'backup.status', 'item.reference', 'realm.name as realm'])
      .where('backup.id', '=', backupId)
      .executeTakeFirst();
    if (!row || row.status === 'failed' || row.status === 'done') return;
    const at = now();
    await trx.updateTable('backup').set({ status: 'failed', error: reason, finished_at: at }).where('id', '=', backupId).execute();
    await emitEvent(trx, 'backup.failed', {
      realm: row.realm,
      reference: row.reference,
      backup: row.id,
      reason: row.reason,
      error: reason,
      at,
    });
  });
}
