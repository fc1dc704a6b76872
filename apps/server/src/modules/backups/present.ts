import { BACKUP_PARTS, type Backup, type BackupRestore } from '@atalaya/contract';
import { partsOf } from './snapshot.ts';
import type { BackupRestoreRow, BackupRow } from './tables.ts';

const iso = (seconds: number | null) => (seconds === null ? null : new Date(Number(seconds) * 1000).toISOString());
const progressOf = (status: string, jobProgress: number | null) =>
  status === 'done' ? 100 : status === 'running' ? Number(jobProgress ?? 0) : 0;

/** A backup as the screen lists it: the parts it holds in the contract's order, what it added, its job's progress. */
export function toBackup(row: BackupRow & { job_progress: number | null }): Backup {
  const held = new Set(partsOf(row).map((p) => p.part));
  return {
    id: row.id,
    time: iso(row.started_at ?? row.created_at)!,
    finished: iso(row.finished_at),
    reason: row.reason,
    status: row.status,
    progress: progressOf(row.status, row.job_progress),
    parts: BACKUP_PARTS.filter((p) => held.has(p)),
    added: Number(row.added),
    size: Number(row.size),
    error: row.error,
    job: row.job_id,
  };
}

export function toRestore(row: BackupRestoreRow & { job_progress: number | null }): BackupRestore {
  return {
    id: row.id,
    backup: row.backup_id,
    time: iso(row.created_at)!,
    finished: iso(row.finished_at),
    part: row.part,
    path: row.path,
    target: row.target,
    status: row.status,
    progress: progressOf(row.status, row.job_progress),
    result: row.result,
    error: row.error,
    job: row.job_id,
  };
}
