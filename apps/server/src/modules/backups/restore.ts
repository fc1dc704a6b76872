import { randomBytes } from 'node:crypto';
import { toLanguage, translate } from '@atalaya/contract';
import type { StoredPart } from '../../drivers/backups/interface.ts';
import { dnsSettings } from '../../drivers/dns/index.ts';
import { ApiError } from '../../http/errors.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { now } from '../../store/db.ts';
import { applyPlan } from '../dns/import/apply.ts';
import { parseMasterFile } from '../dns/import/parse.ts';
import { offeredLines, planChange } from '../dns/import/plan.ts';
import { realmRepository } from './repository.ts';
import { partsOf, takeBackup } from './snapshot.ts';
import { backupTarget } from './spec.ts';
import type { BackupRestoreRow } from './tables.ts';

const two = (n: number) => String(n).padStart(2, '0');
/** `YYYYMMDD-HHMM` of a time, local: what names a copy (`restored-<stamp>/`, the mail folder). */
export function stampOf(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${d.getFullYear()}${two(d.getMonth() + 1)}${two(d.getDate())}-${two(d.getHours())}${two(d.getMinutes())}`;
}

/** MariaDB's longest database name the panel makes (a user name shares it, and MariaDB's users stop at 32). */
export const DATABASE_NAME_MAX = 32;

/**
 * The names a database's copy may take, in order: `<base>_r<YYYYMMDD>`, then with the time too
 * if a copy of that day exists; the base is cut so that each fits in 32 characters.
 */
export function copyDatabaseNames(base: string, stamp: string): string[] {
  const [day, time] = stamp.split('-');
  return [`_r${day}`, `_r${day}${time}`].map((suffix) => `${base.slice(0, DATABASE_NAME_MAX - suffix.length)}${suffix}`);
}

/**
 * A database copy's own panel row (counted in the service's limit, shown with its password) and
 * its database made on the server, before the dump is loaded into it.
 */
async function copyDatabase(runtime: Runtime, row: BackupRestoreRow, base: string) {
  const { store, secrets, drivers } = runtime;
  for (const name of copyDatabaseNames(base, stampOf(row.created_at))) {
    const taken = await store.selectFrom('service_database').select('item_id').where('name', '=', name).executeTakeFirst();
    // A row of this restore's own earlier attempt is this copy: its database is made again, its dump loaded over.
    if (taken && !(row.result === name && taken.item_id === row.item_id)) continue;
    if (!taken) {
      await store
        .insertInto('service_database')
        .values({
          item_id: row.item_id,
          name,
          username: name,
          password_secret: secrets.encrypt(randomBytes(18).toString('base64url')),
          created_at: now(),
        })
        .execute();
      await store.updateTable('backup_restore').set({ result: name }).where('id', '=', row.id).execute();
    }
    const made = await store.selectFrom('service_database').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
    await drivers.databases.ensure({
      name: made.name,
      user: made.username,
      password: secrets.decrypt(made.password_secret),
      externalAccess: made.external_access === 1,
    });
    return name;
  }
  throw new Error(`no free name for a copy of ${base}`);
}

/**
 * The zone as the backup holds it, put back through the zone import (its history records the
 * change, by `backup-restore`, so it can be reverted like any import). The zone as it is already:
 * nothing to change.
 */
async function restoreZone(
  runtime: Runtime,
  row: BackupRestoreRow,
  parts: StoredPart[],
  repo: Awaited<ReturnType<typeof realmRepository>>,
) {
  const { store, config, drivers } = runtime;
  const zone = parts.find((p) => p.part === 'zone');
  const domain = zone?.names[0];
  if (!domain) throw new Error('the backup holds no zone');
  const text = await drivers.backups.read(repo, parts, `/zone/${domain}.zone`);
  const settings = dnsSettings(config);
  try {
    await applyPlan(store, row.item_id, { kind: 'import', by: 'backup-restore' }, (current, name) => {
      const { records, refused } = parseMasterFile(text, name);
      return planChange(offeredLines(records, name, refused), current, name, 'replace', settings.defaultTtl, refused);
    });
  } catch (error) {
    if (!(error instanceof ApiError && error.key === 'dns.import_nothing')) throw error;
  }
  return domain;
}

/**
 * Runs one restore. `replace` first backs up what it overwrites (the same part, in this job, its
 * id kept on the restore so a retry does not take it twice); then the driver restores into a
 * staging folder and renames it into place. Answers where the data went.
 */
export async function runRestore(runtime: Runtime, row: BackupRestoreRow, progress: (percent: number) => unknown, signal?: AbortSignal) {
  const { store, config, secrets, drivers } = runtime;
  const backup = await store.selectFrom('backup').selectAll().where('id', '=', row.backup_id).executeTakeFirstOrThrow();
  const parts = partsOf(backup);
  const target = await backupTarget(store, row.item_id);
  const repo = await realmRepository(store, config, secrets, target.realm_id);
  if (row.target === 'replace') {
    let before = row.before_backup_id
      ? await store.selectFrom('backup').selectAll().where('id', '=', row.before_backup_id).executeTakeFirst()
      : undefined;
    if (!before) {
      const t = now();
      const made = await store
        .insertInto('backup')
        .values({ item_id: row.item_id, reason: 'before_restore', status: 'running', job_id: row.job_id, created_at: t, started_at: t })
        .returning('id')
        .executeTakeFirstOrThrow();
      await store.updateTable('backup_restore').set({ before_backup_id: made.id }).where('id', '=', row.id).execute();
      before = await store.selectFrom('backup').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
    }
    if (before.status !== 'done') await takeBackup(runtime, before, (p) => progress(Math.round(p / 2)), signal, row.part);
  }
  const half = row.target === 'replace' ? (p: number) => progress(50 + Math.round(p / 2)) : progress;
  if (row.part === 'zone') return restoreZone(runtime, row, parts, repo);
  const stamp = stampOf(row.created_at);
  const copy =
    row.part === 'db' && row.target === 'copy' ? await copyDatabase(runtime, row, row.path.split('/').filter(Boolean)[0] ?? '') : undefined;
  const { result } = await drivers.backups.restore(
    repo,
    {
      parts,
      part: row.part,
      path: row.path,
      target: row.target,
      stamp,
      mailFolderName: translate(toLanguage(row.language), 'backups.restored_folder', { stamp }),
      ...(copy ? { copyDatabase: copy } : {}),
    },
    half,
    signal,
  );
  return result;
}
