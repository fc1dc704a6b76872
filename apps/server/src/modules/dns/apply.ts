import type { DnsDriver } from '../../drivers/dns/interface.ts';
import { registerJobHandler } from '../../outbox/outbox.ts';
import { now, type Store } from '../../store/db.ts';
import type { RRset } from './rrsets.ts';

export const APPLY_ZONE = 'dns.apply-zone';

export interface ApplyZonePayload {
  /** The store the job belongs to (storeKey), so the job finds the driver configured for it. */
  target: string;
  itemId: number;
  zone: string;
  version: number;
  rrsets: RRset[];
}

const targets = new Map<string, { store: Store; driver: DnsDriver }>();

export function registerDnsTarget(key: string, store: Store, driver: DnsDriver) {
  targets.set(key, { store, driver });
  return () => {
    if (targets.get(key)?.store === store) targets.delete(key);
  };
}

/**
 * Applies a zone's desired state. A job older than the zone's current version is skipped: a newer
 * job carries the newer state, so a retried old job can never overwrite a newer change.
 */
registerJobHandler(APPLY_ZONE, async (raw) => {
  const payload = raw as ApplyZonePayload;
  const target = targets.get(payload.target);
  if (!target) throw new Error('no DNS driver for this store in this process');
  const zone = await target.store.selectFrom('dns_zone').select('version').where('item_id', '=', payload.itemId).executeTakeFirst();
  if (!zone || zone.version > payload.version) return;
  await target.driver.applyZone({ itemId: payload.itemId, name: payload.zone, version: payload.version, rrsets: payload.rrsets });
  await target.store
    .updateTable('dns_zone')
    .set({ applied_version: payload.version, applied_at: now() })
    .where('item_id', '=', payload.itemId)
    .where('applied_version', '<', payload.version)
    .execute();
});
