import type { Readable } from 'node:stream';
import type { BackupRepository, StoredPart } from '../../drivers/backups/interface.ts';
import { ApiError, FieldErrors } from '../../http/errors.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { NodeAway, onItemNode } from '../../nodes/remote.ts';

/** The message key a driver's refusal carries, as a BackupError or as its text after crossing an agent's link. */
export const refusalKey = (error: unknown) =>
  (error as { key?: string }).key ?? /^(backups\.[a-z_]+)/.exec(error instanceof Error ? error.message : '')?.[1];

/**
 * A driver's refusal of a browse or download as the call's answer: a path the backup has not got is
 * 404, one that leaves it 400 under `path`, a repository down or full 503; a node whose agent is
 * away 503 too. Anything else goes on as the error it is.
 */
export function driverRefusal(error: unknown): never {
  if (error instanceof NodeAway) throw new ApiError(503, 'service.node_away');
  const key = refusalKey(error);
  if (key === 'backups.path_not_found') throw new ApiError(404, key);
  if (key === 'backups.path_outside') throw FieldErrors.one('path', key);
  if (key === 'backups.repository_unreachable' || key === 'backups.repository_full' || key === 'backups.restic_missing')
    throw new ApiError(503, key);
  throw error;
}

/** A file or folder of a backup as .tar.gz, made where the service is placed (restic reads the repository from there). */
export async function backupDownload(
  runtime: Runtime,
  itemId: number,
  repo: BackupRepository,
  parts: StoredPart[],
  path: string,
): Promise<Readable> {
  return onItemNode(runtime, itemId, () => runtime.drivers.backups.download(repo, parts, path));
}
