import type { DomainInfo } from '../../drivers/registry/interface.ts';
import { FieldErrors } from '../../http/errors.ts';
import type { Store } from '../../store/db.ts';

const bare = (name: string) => name.toLowerCase().replace(/\.$/, '');

/**
 * A published DS only validates on servers that hold its key: the current ones, and the panel's own
 * when the panel signs the zone (it placed a DS for it). Moving to any other server while a DS is
 * published breaks resolution for validating resolvers, so that needs a confirmation: the refusal
 * names the consequence under the form's `confirm` field, and the form sends it again with `confirm`.
 */
export async function confirmDsKept(store: Store, info: DomainInfo, hosts: string[], panelServers: string[]) {
  if (!info.hasSecDns) return;
  const signedHere = await store.selectFrom('dns_managed_ds').select('id').where('item_id', '=', info.itemId).executeTakeFirst();
  const able = new Set([...info.nameServers, ...(signedHere ? panelServers : [])].map(bare));
  const unable = hosts.filter((h) => !able.has(bare(h)));
  if (unable.length) throw FieldErrors.one('confirm', 'domain.ns_confirm_ds', { servers: unable.join(', ') });
}
