import type { BackupRepository, StoredPart } from '../../drivers/backups/interface.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { MAX_ATTEMPTS } from '../../outbox/outbox.ts';
import { PermanentJobError } from '../../outbox/permanent.ts';
import { now } from '../../store/db.ts';
import { type CarryData, type MoveStep, onMachine, type ServiceContents, streamData } from '../service/move.ts';
import { isLocalRepository, realmRepository } from './repository.ts';
import { stampOf } from './restore.ts';
import { failBackup, partsOf, reasonOf, takeBackup } from './snapshot.ts';

/** One piece of a service a restore puts back whole: its web root, a mailbox, a database. */
export interface WholePiece {
  part: 'web' | 'mail' | 'db';
  /** The restore's path inside the part: `/`, `/<address>`, `/<database>`. */
  path: string;
}

/** The pieces a backup's parts hold that the service still has (a mailbox deleted since is not brought back). */
export function piecesIn(parts: StoredPart[], contents: ServiceContents): WholePiece[] {
  const pieces: WholePiece[] = [];
  if (contents.service?.kind === 'normal' && parts.some((p) => p.part === 'web')) pieces.push({ part: 'web', path: '/' });
  const mailed = parts.find((p) => p.part === 'mail')?.names ?? [];
  for (const address of contents.addresses) if (mailed.includes(address)) pieces.push({ part: 'mail', path: `/${address}` });
  const dumped = parts.filter((p) => p.part === 'db').map((p) => p.names[0]);
  for (const d of contents.databases) if (dumped.includes(d.name)) pieces.push({ part: 'db', path: `/${d.name}` });
  return pieces;
}

/**
 * Restores one piece whole over what a node holds (`replace`: staged, then renamed into place),
 * through that node's own backups driver: the data goes from the repository to the node, never
 * through the panel.
 */
export function putBack(runtime: Runtime, node: number, job: number, repo: BackupRepository, parts: StoredPart[], piece: WholePiece) {
  return onMachine(runtime, node, job, () =>
    runtime.drivers.backups.restore(repo, { parts, part: piece.part, path: piece.path, target: 'replace', stamp: stampOf(now()) }),
  );
}

/**
 * Whether both machines of a move reach the realm's repository: always for a remote one (sftp:,
 * s3:, rest:…, which every machine is configured to reach); for a local path only when both see the
 * same repository there (the same restic id: a shared mount, or one machine, as in the tests).
 */
async function sharedRepository(step: MoveStep, repo: BackupRepository) {
  if (!isLocalRepository(repo.url)) return true;
  const { runtime, job, from, to } = step;
  // The old machine's backups go to its own path anyway: the repository made there is where they would be.
  await onMachine(runtime, from, job.id, () => runtime.drivers.backups.ensureRepository(repo));
  const [old, next] = await Promise.all(
    [from, to].map((node) => onMachine(runtime, node, job.id, () => runtime.drivers.backups.repositoryId(repo))),
  );
  return old !== null && old === next;
}

/**
 * Step 2 of a move by snapshot (decision 064): a backup (reason `move`) taken on the old machine,
 * straight into the realm's repository, and each piece restored whole on the new node from it.
 * The backup's row carries the move's job, so a retried move restores from the one already taken.
 * A repository the new node cannot see (a local path on the panel's machine alone), or a service
 * with no hosting (nothing a backup takes), goes the old way, streamed through the panel.
 */
export function carryBySnapshot(runtime: Runtime): CarryData {
  const { store, config, secrets } = runtime;
  return async (step) => {
    const { job, progress, signal, contents } = step;
    if (!contents.service) return streamData(step);
    const repo = await realmRepository(store, config, secrets, contents.realmId);
    if (!(await sharedRepository(step, repo))) return streamData(step);
    const mine = () => store.selectFrom('backup').selectAll().where('job_id', '=', job.id).where('reason', '=', 'move').executeTakeFirst();
    let row = await mine();
    if (!row) {
      const t = now();
      await store
        .insertInto('backup')
        .values({ item_id: contents.itemId, reason: 'move', status: 'running', job_id: job.id, created_at: t, started_at: t })
        .execute();
      row = (await mine())!;
    }
    if (row.status !== 'done') {
      const taking = row;
      try {
        await onMachine(runtime, step.from, job.id, () =>
          takeBackup(runtime, taking, (p) => progress(10 + Math.round((35 * p) / 100)), signal),
        );
      } catch (error) {
        // The move gives up with this attempt (the outbox's last): its backup is reported failed, as any other.
        if (error instanceof PermanentJobError || job.attempts + 1 >= MAX_ATTEMPTS) await failBackup(runtime, taking.id, reasonOf(error));
        throw error;
      }
    }
    const parts = partsOf(await store.selectFrom('backup').select('parts').where('id', '=', row.id).executeTakeFirstOrThrow());
    const pieces = piecesIn(parts, contents);
    for (const [i, piece] of pieces.entries()) {
      signal.throwIfAborted();
      await putBack(runtime, step.to, job.id, repo, parts, piece);
      await progress(45 + Math.round((35 * (i + 1)) / pieces.length));
    }
  };
}

/**
 * How a move carries its data: by a snapshot (above), unless the operator turned that off
 * (`backups.moveBySnapshot: false`, docs/backups.md), when it streams through the panel as before.
 */
export function moveCarry(runtime: Runtime): CarryData {
  return runtime.config.backups.moveBySnapshot ? carryBySnapshot(runtime) : streamData;
}
