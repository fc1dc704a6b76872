import type { Backup, BackupList } from '@atalaya/contract';
import { queryOptions } from '@tanstack/react-query';
import { fetchData } from './api.ts';
import { endpoints } from './endpoints.ts';

/**
 * A service's backups, read by two screens under one cache key: the Backups screen
 * (features/backups) and the service's main view, which says when the last backup failed.
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

/** The latest backup that ended, when it failed: the one the service's main view reports (the next run may still mend it). */
export function lastFailure(backups: readonly Backup[] | undefined): Backup | null {
  const ended = (backups ?? []).filter((b) => !working(b.status));
  const last = ended.reduce<Backup | null>((latest, b) => (latest === null || b.id > latest.id ? b : latest), null);
  return last?.status === 'failed' ? last : null;
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
