import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from '../../config/config.ts';
import type { BackupRepository } from '../../drivers/backups/interface.ts';
import type { Secrets } from '../../secrets.ts';
import { now } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';

/** A repository URL restic reads as a remote kind; anything else is a local path. */
const REMOTE = /^(sftp|s3|rest|b2|azure|gs|swift|rclone):/;

/** Whether a repository is a path on the machine restic runs on (each machine may hold its own there). */
export const isLocalRepository = (url: string) => !REMOTE.test(url);

/** Where the realms' repositories live: the operator's `backups.repository`, else `<dataDir>/backups`. */
export const baseRepository = (config: Config) => config.backups.repository ?? path.join(config.dataDir, 'backups');

/** One realm's repository: `<base>/<realm>` (a folder of a local path, a path segment of a URL). */
export function realmRepositoryUrl(base: string, realm: string): string {
  if (REMOTE.test(base)) return `${base.replace(/\/+$/, '')}/${realm}`;
  return path.join(base, realm);
}

/**
 * The realm's repository and its key: generated at first use (32 random bytes), sealed with the
 * panel's secrets, so one key opens one customer's data and the store never holds it in clear.
 * The URL is kept from that first use: changing `backups.repository` later leaves the realms that
 * have one where they are (docs/backups.md says how to move them).
 */
export async function realmRepository(db: Kysely<Database>, config: Config, secrets: Secrets, realmId: number): Promise<BackupRepository> {
  const row = await db.selectFrom('backup_repository').selectAll().where('realm_id', '=', realmId).executeTakeFirst();
  if (row) return { url: row.url, password: secrets.decrypt(row.password_sealed), env: config.backups.env };
  const realm = await db.selectFrom('realm').select('name').where('id', '=', realmId).executeTakeFirstOrThrow();
  await db
    .insertInto('backup_repository')
    .values({
      realm_id: realmId,
      url: realmRepositoryUrl(baseRepository(config), realm.name),
      password_sealed: secrets.encrypt(randomBytes(32).toString('base64url')),
      created_at: now(),
    })
    // Two first uses at once: the first key written is the realm's, the other is dropped unread.
    .onConflict((oc) => oc.column('realm_id').doNothing())
    .execute();
  return realmRepository(db, config, secrets, realmId);
}

/** The environment restic needs for a repository beside its URL and key (the CLI prints their names). */
export const repositoryEnvNames = (repo: BackupRepository) => ['RESTIC_REPOSITORY', 'RESTIC_PASSWORD', ...Object.keys(repo.env ?? {})];
