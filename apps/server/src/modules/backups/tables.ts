import type { Generated, Selectable } from 'kysely';

/** A realm's restic repository (migration 0044_backups): where it is, and its key sealed with the panel's secrets. */
export interface BackupRepositoryTable {
  realm_id: number;
  url: string;
  password_sealed: string;
  created_at: number;
}

/** One backup of a service: a restic snapshot per part (`parts`: JSON of the driver's StoredPart[]). */
export interface BackupTable {
  id: Generated<number>;
  item_id: number;
  reason: 'schedule' | 'customer' | 'before_restore' | 'move';
  status: 'queued' | 'running' | 'done' | 'failed';
  job_id: number | null;
  parts: Generated<string>;
  /** Bytes it added to the repository, and bytes it holds. */
  added: Generated<number>;
  size: Generated<number>;
  /** A failure's reason: a message key (`backups.repository_full`) or restic's own words. */
  error: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  /** When retention removed its last snapshot from the repository: it is no longer listed. */
  forgotten_at: number | null;
}

/** One restore of a backup's part (or a path of it), beside the live data or over it. */
export interface BackupRestoreTable {
  id: Generated<number>;
  item_id: number;
  backup_id: number;
  part: 'web' | 'mail' | 'db' | 'zone';
  path: string;
  target: 'copy' | 'replace';
  status: 'queued' | 'running' | 'done' | 'failed';
  job_id: number | null;
  /** Where a copy went (a web folder, a mail folder, a database). */
  result: string | null;
  error: string | null;
  /** The customer's language when asked: a mail copy's folder is named in it. */
  language: Generated<string>;
  /** A `replace`'s backup of what it overwrote, taken first in the same job. */
  before_backup_id: number | null;
  created_at: number;
  finished_at: number | null;
}

export interface BackupTables {
  backup_repository: BackupRepositoryTable;
  backup: BackupTable;
  backup_restore: BackupRestoreTable;
}
export type BackupRow = Selectable<BackupTable>;
export type BackupRestoreRow = Selectable<BackupRestoreTable>;
