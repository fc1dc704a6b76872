import type { Config } from '../../config/config.ts';
import type { SnapshotSpec } from '../../drivers/backups/interface.ts';
import { dnsSettings } from '../../drivers/dns/index.ts';
import type { Store } from '../../store/db.ts';
import { exportZone } from '../dns/bind.ts';
import { loadRecords } from '../dns/record-store.ts';

/** The item a backup is of: its realm (the repository), reference (the tags) and where it is placed. */
export async function backupTarget(store: Store, itemId: number) {
  return store
    .selectFrom('item')
    .innerJoin('realm', 'realm.id', 'item.realm_id')
    .innerJoin('service', 'service.item_id', 'item.id')
    .leftJoin('node', 'node.id', 'item.node_id')
    .select(['item.id', 'item.reference', 'item.realm_id', 'realm.name as realm', 'service.kind', 'node.name as node'])
    .where('item.id', '=', itemId)
    .executeTakeFirstOrThrow();
}
export type BackupTarget = Awaited<ReturnType<typeof backupTarget>>;

/** The tags every snapshot of a service carries: `restic snapshots --tag service:<reference>` finds them. */
export const serviceTags = (target: { realm: string; reference: string }) => [`realm:${target.realm}`, `service:${target.reference}`];

/**
 * What one backup of a service holds, read from the panel's rows as they are when it runs: the web
 * root (a normal service's), every mailbox, every database, the zone as the panel would export
 * it, and the settings (sites, redirections, aliases, FTP users; no password) for disaster recovery.
 */
export async function snapshotSpec(store: Store, config: Config, target: BackupTarget): Promise<SnapshotSpec> {
  const itemId = target.id;
  const live = <T extends 'mail_account' | 'service_database' | 'ftp_user' | 'mail_alias'>(table: T) =>
    store
      .selectFrom(table as 'mail_account')
      .selectAll()
      .where('item_id', '=', itemId)
      .where('deleting', '=', 0)
      .orderBy('id')
      .execute();
  const mailboxes = await live('mail_account');
  const databases = (await live('service_database')) as unknown as { name: string }[];
  const ftp = (await live('ftp_user')) as unknown as { name: string; login: string; folder: string }[];
  const aliases = (await live('mail_alias')) as unknown as { name: string; targets: string }[];
  const sites = await store
    .selectFrom('site')
    .select(['name', 'folder', 'ssl_enabled', 'acme_enabled'])
    .where('service_id', '=', itemId)
    .execute();
  const redirections = await store
    .selectFrom('redirection')
    .select(['origin', 'kind', 'target'])
    .where('service_id', '=', itemId)
    .execute();
  const zone = await store.selectFrom('dns_zone').select(['name', 'version']).where('item_id', '=', itemId).executeTakeFirst();
  const settings = {
    reference: target.reference,
    realm: target.realm,
    kind: target.kind,
    sites,
    redirections,
    mailboxes: mailboxes.map((m) => ({ name: m.name, quota: m.quota, forwardTo: m.forward_to, forwardKeep: m.forward_keep === 1 })),
    aliases: aliases.map((a) => ({ name: a.name, targets: a.targets })),
    ftp: ftp.map((f) => ({ name: f.name, login: f.login, folder: f.folder })),
    databases: databases.map((d) => d.name),
  };
  return {
    tags: serviceTags(target),
    host: target.node ?? 'panel',
    ...(target.kind === 'normal' ? { web: { reference: target.reference } } : {}),
    ...(mailboxes.length ? { mail: { addresses: mailboxes.map((m) => `${m.name}@${target.reference}`) } } : {}),
    ...(databases.length ? { db: { names: databases.map((d) => d.name) } } : {}),
    ...(zone
      ? { zone: { domain: zone.name, text: exportZone(await loadRecords(store, itemId), zone.name, zone.version, dnsSettings(config)) } }
      : {}),
    settings: { json: JSON.stringify(settings, null, 2) },
  };
}
