import type { Runtime } from '../../kernel/runtime.ts';
import { queueBackup } from './jobs.ts';

/**
 * The demo's first backup: its main hosting service's, queued once the seed's own jobs are applied,
 * so the started panel's worker takes it (restic to `<dataDir>/backups/<realm>`) and the Backups
 * screen has one without holding up the start.
 */
export async function seedBackupsDemo(runtime: Runtime, realm: string) {
  const service = await runtime.store
    .selectFrom('item')
    .innerJoin('realm', 'realm.id', 'item.realm_id')
    .innerJoin('service', 'service.item_id', 'item.id')
    .select('item.id')
    .where('realm.name', '=', realm)
    .where('service.kind', '=', 'normal')
    .orderBy('item.id')
    .executeTakeFirst();
  if (service && runtime.config.backups.enabled) await queueBackup(runtime.store, service.id, 'schedule');
}
