import type { BackupList } from '@atalaya/contract';
import { queryOptions } from '@tanstack/react-query';
import { fetchData } from './api.ts';
import { endpoints } from './endpoints.ts';

/**
 * A service's backups as the Backups screen (features/backups) reads them, and the reason of a
 * failure, which the service's main view shows too (its line of the last failed backup).
 */
export const backupsKey = (id: number | string) => ['service', Number(id), 'backups'] as const;

const working = (status: string) => status === 'queued' || status === 'running';

/** What runs now: a backup (no second one may be asked for) and a restore (no second one either). */
export function busyOf(list: BackupList | undefined) {
  return {
    backup: list?.backups.some((b) => working(b.status)) ?? false,
    restore: list?.restores.some((r) => working(r.status)) ?? false,
  };
}

/** The list is polled while a backup or a restore is queued or running, and no longer once all have settled. */
export const BACKUPS_POLL_MS = 1500;
export function pollWhileWorking(list: BackupList | undefined): number | false {
  const busy = busyOf(list);
  return busy.backup || busy.restore ? BACKUPS_POLL_MS : false;
}

/** A failed backup's or restore's reason: a message key of the catalogue is translated, a tool's own words are shown as they are. */
export const reasonText = (error: string, exists: (key: string) => boolean, t: (key: string) => string) =>
  exists(error) ? t(error) : error;

/** GET /service/{id}/backups/: the backups, the restores, the schedule and the retention; polled while one is queued or running. */
export const backupsQuery = (id: number | string) =>
  queryOptions({
    queryKey: backupsKey(id),
    queryFn: () => fetchData(endpoints.backups.list, { id }),
    refetchInterval: (q) => pollWhileWorking(q.state.data),
  });
