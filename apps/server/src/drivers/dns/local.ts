import type { Store } from '../../store/db.ts';
import { type DnsDriver, type RRset, txtContent } from './interface.ts';

async function servedZone(store: Store, zone: string) {
  const row = await store
    .selectFrom('dns_zone')
    .innerJoin('item', 'item.id', 'dns_zone.item_id')
    .select(['dns_zone.item_id', 'dns_zone.served'])
    .where('item.reference', '=', zone)
    .executeTakeFirst();
  if (!row) throw new Error(`zone ${zone} is not served`);
  return row;
}

/** No DNS server: what would be served is kept in the store (dns_zone.served), for the panel and tests. */
export function localDnsDriver(store: Store): DnsDriver {
  return {
    kind: 'local',
    async applyZone(state) {
      const served = JSON.stringify(state.rrsets);
      await store.updateTable('dns_zone').set({ served }).where('item_id', '=', state.itemId).execute();
    },
    /** The patched RRsets replace their namesakes in what the zone is said to serve (`dns_zone.served`). */
    async patchRRsets(zone, rrsets, gone) {
      const row = await servedZone(store, zone);
      const replaced = new Set([...rrsets, ...gone].map((s) => `${s.name} ${s.type}`));
      const served = (JSON.parse(row.served ?? '[]') as RRset[]).filter((s) => !replaced.has(`${s.name} ${s.type}`));
      await store
        .updateTable('dns_zone')
        .set({ served: JSON.stringify([...served, ...rrsets]) })
        .where('item_id', '=', row.item_id)
        .execute();
    },
    /** The TXT RRset joins what the zone is said to serve (`dns_zone.served`). */
    async setTxt(zone, name, values) {
      const row = await servedZone(store, zone);
      const rrsets = (JSON.parse(row.served ?? '[]') as RRset[]).filter((s) => !(s.name === name && s.type === 'TXT'));
      if (values.length) rrsets.push({ name, type: 'TXT', ttl: 60, contents: values.map(txtContent) });
      await store
        .updateTable('dns_zone')
        .set({ served: JSON.stringify(rrsets) })
        .where('item_id', '=', row.item_id)
        .execute();
    },
  };
}
