import { dnsSettings } from '../drivers/dns/index.ts';
import type { Runtime } from '../kernel/runtime.ts';
import { exportZone } from '../modules/dns/bind.ts';
import { publishedWithZone } from '../modules/dns/mail-records.ts';
import { loadRecords } from '../modules/dns/record-store.ts';
import { ensureZone } from '../modules/dns/zone.ts';
import { AccountError, findItem } from '../modules/provisioning/accounts.ts';

/** `zone-export <realm> <reference>`: the item's zone in BIND format, for named-checkzone or a secondary. */
export async function zoneExportText({ store, config }: Runtime, realm: string, reference: string): Promise<string> {
  const settings = dnsSettings(config);
  const item = await findItem(store, realm, reference);
  const service = await store.selectFrom('service').select('item_id').where('item_id', '=', item.id).executeTakeFirst();
  if (!service) throw new AccountError(`Item "${reference}" has no hosting service, so no DNS zone`);
  const zone = await ensureZone(store, { settings, published: publishedWithZone(config) }, item.id, item.reference);
  return exportZone(await loadRecords(store, item.id), zone.name, zone.version, settings);
}
