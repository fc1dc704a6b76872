import { z } from 'zod';
import {
  BackupDownloadQuery,
  BackupFilesQuery,
  BackupRestoreForm,
  backupFilesSchema,
  backupListSchema,
  backupRestoreSchema,
  backupSchema,
} from '../backups.ts';
import { endpoint, itemParams } from './endpoint.ts';

const snapshotParams = z.object({ id: z.string(), snapshot: z.string() });
const read = { area: 'service_backups', level: 'read' } as const;
const write = { area: 'service_backups', level: 'write' } as const;

/** A hosting service's backups (docs/backups.md): read lists, browses and downloads; write backs up now and restores. */
export const backups = {
  list: endpoint({
    method: 'GET',
    path: '/service/:id/backups/',
    params: itemParams,
    answer: backupListSchema,
    permission: read,
  }),
  /** A backup now: a job with progress, one at a time per service, at most `backups.perDay` a day. */
  create: endpoint({
    method: 'POST',
    path: '/service/:id/backups/',
    params: itemParams,
    answer: z.object({ backup: backupSchema }),
    permission: write,
  }),
  files: endpoint({
    method: 'GET',
    path: '/service/:id/backups/:snapshot/files/',
    params: snapshotParams,
    query: BackupFilesQuery,
    answer: backupFilesSchema,
    permission: read,
  }),
  /** A file or a folder of the backup as .tar.gz, streamed from the repository. */
  download: endpoint({
    method: 'GET',
    path: '/service/:id/backups/:snapshot/download/',
    params: snapshotParams,
    query: BackupDownloadQuery,
    answer: { file: 'application/gzip' },
    permission: read,
  }),
  /** Puts back a part (or a path of it) beside the live data (`copy`) or over it (`replace`, after a backup of what it overwrites). */
  restore: endpoint({
    method: 'POST',
    path: '/service/:id/backups/:snapshot/restore/',
    params: snapshotParams,
    body: BackupRestoreForm,
    answer: z.object({ restore: backupRestoreSchema }),
    permission: write,
  }),
};
