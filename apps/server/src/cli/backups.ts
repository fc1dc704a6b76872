import type { Runtime } from '../kernel/runtime.ts';
import { realmRepository, repositoryEnvNames } from '../modules/backups/repository.ts';
import { findRealm } from '../modules/provisioning/accounts.ts';
import type { Store } from '../store/db.ts';

const iso = (seconds: number | null) =>
  seconds === null ? '-' : new Date(Number(seconds) * 1000).toISOString().slice(0, 19).replace('T', ' ');

/**
 * `backup-key <realm>`: the realm's repository and its key, for a restore with restic alone when
 * the panel is gone (docs/backups.md). A realm without one yet gets it now, as its first backup would.
 */
export async function backupKeyLines(runtime: Runtime, realmName: string): Promise<string[]> {
  const { store, config, secrets } = runtime;
  const realm = await findRealm(store, realmName);
  const repo = await realmRepository(store, config, secrets, realm.id);
  const env = Object.keys(repo.env ?? {});
  return [
    `repository: ${repo.url}`,
    `key: ${repo.password}`,
    `environment: ${repositoryEnvNames(repo).join(' ')}${env.length ? ` (${env.join(', ')}: as in backups.env)` : ''}`,
    `example: RESTIC_REPOSITORY='${repo.url}' RESTIC_PASSWORD='…' restic snapshots --tag realm:${realm.name}`,
  ];
}

/** `backups --failed`: the backups that failed for good, newest first: realm, service, time, reason. */
export async function failedBackupLines(store: Store): Promise<string[]> {
  const rows = await store
    .selectFrom('backup')
    .innerJoin('item', 'item.id', 'backup.item_id')
    .innerJoin('realm', 'realm.id', 'item.realm_id')
    .select([
      'backup.id',
      'realm.name as realm',
      'item.reference',
      'backup.reason',
      'backup.created_at',
      'backup.finished_at',
      'backup.error',
    ])
    .where('backup.status', '=', 'failed')
    .orderBy('backup.id', 'desc')
    .limit(1000)
    .execute();
  if (rows.length === 0) return ['No failed backups'];
  return rows.map((r) => [r.realm, r.reference, iso(r.finished_at ?? r.created_at), r.reason, r.error ?? '-'].join('\t'));
}
