import type { BackupRestoreInput } from '@atalaya/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call, download, fetchData } from '../../../lib/api.ts';
import { backupsKey } from '../../../lib/backups.ts';
import { endpoints } from '../../../lib/endpoints.ts';

export { backupsKey, backupsQuery, busyOf } from '../../../lib/backups.ts';

const backups = endpoints.backups;

/** One folder of a backup's tree; the last folder stays on screen while the next one loads. */
export const backupFilesQuery = (id: number | string, backup: number, path: string) =>
  queryOptions({
    queryKey: [...backupsKey(id), backup, 'files', path],
    queryFn: () => fetchData(backups.files, { id, snapshot: backup }, { path }),
    // A backup never changes once done: its folders need no reloading.
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: keepPreviousData,
  });

export const createBackup = (id: number | string) => call(backups.create, { id });

export const restoreBackup = (id: number | string, backup: number, input: BackupRestoreInput) =>
  call(backups.restore, { id, snapshot: backup }, input);

/** A file or a folder of a backup as .tar.gz. */
export const downloadFromBackup = (id: number | string, backup: number, path: string) =>
  download(backups.download, { id, snapshot: backup }, { path });
