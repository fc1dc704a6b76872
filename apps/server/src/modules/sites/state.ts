import type { RedirectType } from '@atalaya/contract';
import type { Kysely, Transaction } from 'kysely';
import type { SiteRedirection, SiteState } from '../../drivers/sites/interface.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { enqueue } from '../../outbox/outbox.ts';
import type { Database } from '../../store/schema.ts';
import { MTA_STS_HOST, mtaStsPolicy, zoneMxHosts } from '../dns/mail-records.ts';
import { phpVersionOf } from './php.ts';

export const APPLY_JOB = 'sites.apply';
export const siteKey = (siteId: number) => `site-${siteId}`;
export const apexKey = (serviceId: number) => `apex-${serviceId}`;

/** Asks the web driver to converge one host to what the store holds, in the caller's transaction. */
export const enqueueApply = (trx: Transaction<Database> | Kysely<Database>, serviceId: number, key: string) =>
  enqueue(trx, APPLY_JOB, { key }, serviceId);

/**
 * Re-applies every host of a service: for changes of the service itself that a vhost depends on
 * (PHP version, parking toggle). The service area calls this in its own transaction.
 */
export async function enqueueServiceSites(trx: Transaction<Database> | Kysely<Database>, serviceId: number) {
  const sites = await trx.selectFrom('site').select('id').where('service_id', '=', serviceId).execute();
  for (const site of sites) await enqueueApply(trx, serviceId, siteKey(site.id));
  await enqueueApply(trx, serviceId, apexKey(serviceId));
}

async function redirectionsOf(db: Kysely<Database>, serviceId: number, siteId: number | null): Promise<SiteRedirection[]> {
  let query = db.selectFrom('redirection').selectAll().where('service_id', '=', serviceId);
  query = siteId === null ? query.where('site_id', 'is', null) : query.where('site_id', '=', siteId);
  const rows = await query.orderBy('id').execute();
  return rows.map((r) => ({
    id: r.id,
    origin: r.origin,
    kind: r.kind as RedirectType,
    target: r.target,
    frame: r.kind === 'frame' ? { title: r.iframe_title, description: r.iframe_description, keywords: r.iframe_keywords } : null,
  }));
}

/** The wanted state of one host, read from the store at apply time; null when the host is gone. */
export async function loadSiteState(
  { store: db, secrets, config }: Pick<Runtime, 'store' | 'secrets' | 'config'>,
  key: string,
): Promise<SiteState | null> {
  const [kind, rawId] = key.split('-');
  const id = Number(rawId);
  const serviceId =
    kind === 'apex' ? id : (await db.selectFrom('site').select('service_id').where('id', '=', id).executeTakeFirst())?.service_id;
  if (serviceId === undefined) return null;
  const service = await db
    .selectFrom('service')
    .innerJoin('item', 'item.id', 'service.item_id')
    .innerJoin('realm', 'realm.id', 'item.realm_id')
    .select([
      'item.reference',
      'service.kind',
      'service.php_version',
      'service.parking_active',
      'item.suspended',
      'realm.suspended as realmSuspended',
    ])
    .where('service.item_id', '=', serviceId)
    .executeTakeFirst();
  if (!service) return null;
  const facts = {
    kind: service.kind,
    phpVersion: phpVersionOf(service.php_version, config),
    parkingActive: service.parking_active === 1,
    // The operator suspended the item or its whole realm (decision 046): the host answers the suspension page.
    suspended: service.suspended === 1 || service.realmSuspended === 1,
  };
  if (kind === 'apex') {
    // The bare domain carries its own configuration only for a redirect-and-parking service.
    if (service.kind !== 'parking') return null;
    const redirections = await redirectionsOf(db, serviceId, null);
    return { key, serviceId, reference: service.reference, host: service.reference, folder: null, ssl: null, redirections, service: facts };
  }
  const site = await db.selectFrom('site').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const ssl =
    site.ssl_enabled === 1 && site.cert && site.cert_key_sealed
      ? { cert: site.cert, key: secrets.decrypt(site.cert_key_sealed), chain: site.cert_chain }
      : null;
  const host = `${site.name}.${service.reference}`;
  const mtaSts = site.name === MTA_STS_HOST ? await mtaStsOf({ store: db, config }, serviceId, service.reference) : null;
  if (mtaSts) {
    // The name RFC 8461 gives the policy serves the policy alone: no folder, PHP, parking or redirections.
    return {
      key,
      serviceId,
      reference: service.reference,
      host,
      folder: null,
      ssl,
      redirections: [],
      service: { ...facts, parkingActive: false },
      mtaSts,
    };
  }
  return {
    key,
    serviceId,
    reference: service.reference,
    host,
    folder: site.folder,
    ssl,
    redirections: await redirectionsOf(db, serviceId, site.id),
    service: facts,
  };
}

/** The policy a service's `mta-sts` host serves: its mail domain's, while MTA-STS is on; else null. */
async function mtaStsOf({ store: db, config }: Pick<Runtime, 'store' | 'config'>, itemId: number, reference: string) {
  if (config.hosting.mailRecords.mtaSts === 'off' || !config.hosting.mailRecords.mtaStsHost) return null;
  const mail = await db.selectFrom('mail_service').select('item_id').where('item_id', '=', itemId).executeTakeFirst();
  return mail ? mtaStsPolicy(config, await zoneMxHosts(db, config, itemId, reference)) : null;
}
