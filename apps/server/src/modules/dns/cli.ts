import { loadConfig } from '../../config/config.ts';
import { dnsSettings, storeKey } from '../../drivers/dns/index.ts';
import { AccountError, findItem } from '../accounts/accounts.ts';
import type { Store } from '../../store/db.ts';
import { exportZone } from './bind.ts';
import { ensureZone, loadRecords } from './zone.ts';

/** `zone-export <realm> <reference>`: the item's zone in BIND format, for named-checkzone or a secondary. */
export async function zoneExportText(store: Store, realm: string, reference: string): Promise<string> {
  const config = loadConfig();
  const settings = dnsSettings(config);
  const item = await findItem(store, realm, reference);
  const service = await store.selectFrom('service').select('item_id').where('item_id', '=', item.id).executeTakeFirst();
  if (!service) throw new AccountError(`Item "${reference}" has no hosting service, so no DNS zone`);
  const zone = await ensureZone(store, { settings, target: storeKey(config) }, item.id, item.reference);
  return exportZone(await loadRecords(store, item.id), zone.name, zone.version, settings);
}
