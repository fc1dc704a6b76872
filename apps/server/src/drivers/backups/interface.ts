import type { Readable } from 'node:stream';
import type { BackupEntry, BackupPart, RestoreTarget } from '@atalaya/contract';

/**
 * A realm's restic repository (docs/backups.md): `url` is what restic's `-r` takes (a local path,
 * `sftp:`, `s3:`, `rest:`), `password` the realm's own key (sealed in the store, sent to an agent
 * only over its mutual-TLS link), `env` what the kind needs besides (S3's AWS_ACCESS_KEY_ID…).
 */
export interface BackupRepository {
  url: string;
  password: string;
  env?: Record<string, string>;
  /** restic's extended options (`-o key=value`): `sftp.command` for an SSH key or port of its own, `s3.region`… */
  options?: Record<string, string>;
}

/**
 * What one backup of a service holds, as the panel asks for it. The driver resolves each part to
 * its own folders (its web root, its mail root: the panel never names a path on a node).
 * `tags` go on every snapshot (realm:…, service:…); each snapshot also gets `part:<part>`, and a
 * database's `db:<name>`.
 */
export interface SnapshotSpec {
  tags: string[];
  /** restic's `--host`: the node (or `panel`), so a repository shows where each snapshot came from. */
  host: string;
  web?: { reference: string };
  mail?: { addresses: string[] };
  db?: { names: string[] };
  /** The zone as BIND text, made by the panel (it is the panel's DNS). */
  zone?: { domain: string; text: string };
  /** The service's settings as JSON (no password in the clear), for disaster recovery. */
  settings?: { json: string };
}

/** One restic snapshot of a backup: the part, its id, the absolute paths restic recorded. */
export interface StoredPart {
  part: BackupPart;
  snapshot: string;
  /** web: [webFolder]; mail: the homes, one per address (same order as `names`); db/zone/settings: ['/<file>'] as `--stdin-filename` made it. */
  paths: string[];
  /** mail: the addresses; db: the database names; zone: the domain. */
  names: string[];
  /** Bytes this snapshot added to the repository, and bytes it holds. */
  added: number;
  size: number;
}

export interface SnapshotResult {
  parts: StoredPart[];
}

/**
 * A restore, as the panel asks for it. `path` is inside the part (a web folder or file; a mailbox
 * address, optionally with a Maildir folder; a database name; nothing for the zone). `stamp` names
 * a copy: `restored-<stamp>/` in the web root, the mail folder `<mailFolderName>`, the database
 * `copyDatabase` (which the panel has already created with `ensure`).
 */
export interface RestoreSpec {
  parts: StoredPart[];
  part: 'web' | 'mail' | 'db';
  path: string;
  target: RestoreTarget;
  stamp: string;
  mailFolderName?: string;
  copyDatabase?: string;
}

export interface BackupDriver {
  /** Creates the repository if it has none yet (`restic init`); a repository already there is fine. */
  ensureRepository(repo: BackupRepository): Promise<void>;
  /**
   * The repository's own id (`restic cat config`), or null when this machine finds none there: two
   * machines that answer the same id see the same repository (a move by snapshot, decision 064).
   */
  repositoryId(repo: BackupRepository): Promise<string | null>;
  /**
   * Takes one backup: a snapshot per part (`restic backup`, a database dumped with
   * `mariadb-dump --single-transaction` into `--stdin`, never its datadir). A part the node holds
   * nothing of is left out. Progress 0–100 over the parts.
   */
  snapshot(
    repo: BackupRepository,
    spec: SnapshotSpec,
    onProgress?: (percent: number) => unknown,
    signal?: AbortSignal,
  ): Promise<SnapshotResult>;
  /** The entries of a folder of the backup's tree (`/web/…`, `/mail/<address>/…`, `/db/`, `/zone/`): one level. */
  list(repo: BackupRepository, parts: StoredPart[], path: string): Promise<BackupEntry[]>;
  /** A file or folder of the backup's tree as a .tar.gz stream; rejects before any byte when the path is not there. */
  download(repo: BackupRepository, parts: StoredPart[], path: string): Promise<Readable>;
  /** A file of the backup's tree, whole (the zone's text). */
  read(repo: BackupRepository, parts: StoredPart[], path: string): Promise<string>;
  /**
   * Puts a part back: into a staging folder first, then renamed into place, so the live data is the
   * old or the restored version, never a mix. Answers where a copy went (folder, mail folder, database).
   */
  restore(
    repo: BackupRepository,
    spec: RestoreSpec,
    onProgress?: (percent: number) => unknown,
    signal?: AbortSignal,
  ): Promise<{ result: string }>;
  /**
   * `restic forget --keep-daily … --keep-last 1` over the snapshots carrying every tag of `tags`,
   * grouped by their tags (so each part and database keeps its own series); answers the ids removed.
   */
  forget(repo: BackupRepository, tags: string[], keep: { daily: number; weekly: number; monthly: number }): Promise<{ removed: string[] }>;
  /** Removes these snapshots (a failed backup's partial ones). */
  drop(repo: BackupRepository, snapshots: string[]): Promise<void>;
  /** `restic prune`: frees what no snapshot holds any more. */
  prune(repo: BackupRepository): Promise<void>;
  /** `restic check`: answers true when the repository is sound. */
  check(repo: BackupRepository): Promise<boolean>;
}

/**
 * Why a backup or restore failed, as a message key the screen translates: restic missing, a
 * repository it cannot reach, a full one. Anything else keeps restic's own words.
 */
export type BackupErrorKey =
  | 'backups.restic_missing'
  | 'backups.repository_unreachable'
  | 'backups.repository_full'
  | 'backups.path_not_found'
  | 'backups.path_outside';
export class BackupError extends Error {
  readonly key: BackupErrorKey;
  constructor(key: BackupErrorKey, detail?: string) {
    super(detail ? `${key}: ${detail}` : key);
    this.key = key;
  }
}
