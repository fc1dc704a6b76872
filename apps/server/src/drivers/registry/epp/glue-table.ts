import { now, type Store } from '../../../store/db.ts';
import type { Host, HostData } from '../interface.ts';
import type { HostAttributes } from './domain-xml.ts';

/**
 * Glue for a registry that takes name servers as host attributes: there is no host object to hold
 * an address until the name is a name server, so the panel keeps its glue records in
 * `domain_host` (their ids are the panel's) and sends the addresses with the name servers.
 */

export const glueRecords = (store: Store, itemId: number): Promise<Host[]> =>
  store.selectFrom('domain_host').select(['id', 'name', 'ipv4', 'ipv6']).where('item_id', '=', itemId).orderBy('name').execute();

export async function glueAttributes(store: Store, itemId: number): Promise<HostAttributes> {
  return new Map((await glueRecords(store, itemId)).map((h) => [h.name, { ipv4: h.ipv4, ipv6: h.ipv6 }]));
}

export async function addGlue(store: Store, itemId: number, host: HostData): Promise<number | null> {
  const taken = (await glueRecords(store, itemId)).some((h) => h.name === host.name);
  if (taken) return null;
  const row = await store
    .insertInto('domain_host')
    .values({ item_id: itemId, name: host.name, ipv4: host.ipv4, ipv6: host.ipv6, created_at: now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
