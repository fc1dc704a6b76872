import type { DomainInfo, RegistryDriver } from '../../drivers/registry/interface.ts';
import { ApiError } from '../../http/errors.ts';
import type { Store } from '../../store/db.ts';

const bare = (name: string) => name.toLowerCase().replace(/\.$/, '');

/**
 * A published DS only validates on servers that hold its key: the current ones, and the panel's own
 * when the panel signs the zone (it placed a DS for it). Moving to any other server while a DS is
 * published breaks resolution for validating resolvers, so that needs a confirmation (409).
 */
export async function confirmDsKept(store: Store, registry: RegistryDriver, info: DomainInfo, hosts: string[], panelServers: string[]) {
  if ((await registry.listSecDns(info.itemId)).length === 0) return;
  const signedHere = await store.selectFrom('dns_managed_ds').select('id').where('item_id', '=', info.itemId).executeTakeFirst();
  const able = new Set([...info.nameServers, ...(signedHere ? panelServers : [])].map(bare));
  const unable = hosts.filter((h) => !able.has(bare(h)));
  if (unable.length) throw new ApiError(409, 'domain.ns_confirm_ds', { servers: unable.join(', ') });
}
