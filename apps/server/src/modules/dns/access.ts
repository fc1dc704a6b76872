import type { ItemRequest, ServiceAccess } from '../permission/access.ts';
import { publishedWithZone } from './mail-records.ts';
import { type DnsContext, ensureZone } from './zone.ts';

/** The DNS zone of a call its route authorised on service_dnszone: created on first sight, since only items with a hosting service have one. */
export async function zoneOf(request: ItemRequest<ServiceAccess>, ctx: DnsContext) {
  const { itemId, reference } = request.access;
  const { store, config } = request.server.runtime;
  const zone = await ensureZone(store, { published: publishedWithZone(config), ...ctx }, itemId, reference);
  return { itemId, zone: zone.name, version: zone.version };
}
