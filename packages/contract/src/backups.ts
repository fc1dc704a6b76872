import { z } from 'zod';
import { hasLineControl } from './strings.ts';

/**
 * Backups of a hosting service (docs/backups.md): each backup is one restic snapshot per part, in
 * the realm's own repository. A customer browses one tree per backup, `/web/…` (the web root),
 * `/mail/<address>/…` (each mailbox's Maildir), `/db/<name>.sql` (each database's dump) and
 * `/zone/<domain>.zone` (the DNS zone as BIND text); `settings` (sites, redirections, aliases, FTP
 * users, no password) is kept for the operator's disaster recovery, not restored from the screen.
 */
export const BACKUP_PARTS = ['web', 'mail', 'db', 'zone', 'settings'] as const;
export type BackupPart = (typeof BACKUP_PARTS)[number];
export const RESTORABLE_PARTS = ['web', 'mail', 'db', 'zone'] as const satisfies readonly BackupPart[];
export type RestorablePart = (typeof RESTORABLE_PARTS)[number];

/** Why a backup was taken: the nightly schedule, the customer's button, before a `replace` restore, a move between nodes. */
export const BACKUP_REASONS = ['schedule', 'customer', 'before_restore', 'move'] as const;
export type BackupReason = (typeof BACKUP_REASONS)[number];
export const BACKUP_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type BackupState = (typeof BACKUP_STATES)[number];
export const RESTORE_TARGETS = ['copy', 'replace'] as const;
export type RestoreTarget = (typeof RESTORE_TARGETS)[number];

/** A path is at most this long (bytes of UTF-8 aside, characters here) and this deep. */
export const BACKUP_PATH_LIMITS = { characters: 4096, depth: 64 } as const;

/**
 * A path inside a backup, as the browser, the download and the restore send it: absolute, `/`
 * separated, without `.` or empty segments (folded away) and without `..` (refused: it would leave
 * the backup's roots), no control character. Answers the segments, or the message key refusing it.
 */
export function backupPathSegments(value: string): string[] | { error: string } {
  if (value.length > BACKUP_PATH_LIMITS.characters || hasLineControl(value) || value.includes('\\'))
    return { error: 'backups.path_invalid' };
  const segments = value.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) return { error: 'backups.path_outside' };
  if (segments.length > BACKUP_PATH_LIMITS.depth) return { error: 'backups.path_invalid' };
  return segments;
}

const backupPath = z
  .string()
  .default('/')
  .superRefine((v, ctx) => {
    const segments = backupPathSegments(v);
    if (!Array.isArray(segments)) ctx.addIssue({ code: 'custom', message: segments.error });
  })
  .transform((v) => `/${(backupPathSegments(v) as string[]).join('/')}`);

// ---- payloads

export const BackupFilesQuery = z.object({ path: backupPath });
export const BackupDownloadQuery = z.object({ path: backupPath });
/** `path` is inside the part: a folder or file of the web root, `/<address>[/<folder>]` of mail, `/<database>` of db; none for the zone. */
export const BackupRestoreForm = z.object({
  part: z.enum(RESTORABLE_PARTS, { message: 'backups.part_invalid' }),
  path: backupPath,
  target: z.enum(RESTORE_TARGETS, { message: 'backups.target_invalid' }),
});
export type BackupRestoreInput = z.infer<typeof BackupRestoreForm>;

// ---- answers

export const backupSchema = z.object({
  id: z.number(),
  /** When it started (ISO 8601). */
  time: z.string(),
  finished: z.string().nullable(),
  reason: z.enum(BACKUP_REASONS),
  status: z.enum(BACKUP_STATES),
  progress: z.number(),
  parts: z.array(z.enum(BACKUP_PARTS)),
  /** Bytes this backup added to the repository (what changed since the one before). */
  added: z.number(),
  /** Bytes of everything it holds. */
  size: z.number(),
  /** A failed backup's reason, as a message key of the catalogue or the tool's own words. */
  error: z.string().nullable(),
  job: z.number().nullable(),
});
export type Backup = z.infer<typeof backupSchema>;

export const backupRestoreSchema = z.object({
  id: z.number(),
  backup: z.number(),
  time: z.string(),
  finished: z.string().nullable(),
  part: z.enum(RESTORABLE_PARTS),
  path: z.string(),
  target: z.enum(RESTORE_TARGETS),
  status: z.enum(BACKUP_STATES),
  progress: z.number(),
  /** Where a copy went: a folder of the web root, a mail folder, a database's name. */
  result: z.string().nullable(),
  error: z.string().nullable(),
  job: z.number().nullable(),
});
export type BackupRestore = z.infer<typeof backupRestoreSchema>;

export const backupListSchema = z.object({
  backups: z.array(backupSchema),
  restores: z.array(backupRestoreSchema),
  /** The nightly run's time (the operator's `backups.schedule`, spread per service after it) and the day's limit of backups asked for. */
  schedule: z.object({ time: z.string(), perDay: z.number(), usedToday: z.number() }),
  retention: z.object({ daily: z.number(), weekly: z.number(), monthly: z.number() }),
});
export type BackupList = z.infer<typeof backupListSchema>;

export const BACKUP_ENTRY_TYPES = ['dir', 'file', 'symlink'] as const;
export const backupEntrySchema = z.object({
  name: z.string(),
  type: z.enum(BACKUP_ENTRY_TYPES),
  size: z.number(),
  /** ISO 8601, as the file had it. */
  mtime: z.string(),
});
export type BackupEntry = z.infer<typeof backupEntrySchema>;
export const backupFilesSchema = z.object({ path: z.string(), entries: z.array(backupEntrySchema) });
