import type { Store } from '../../store/db.ts';
import type { DnsDriver } from './interface.ts';

/** No DNS server: what would be served is kept in the store (dns_zone.served), for the panel and tests. */
export function localDnsDriver(store: Store): DnsDriver {
  return {
    kind: 'local',
    async applyZone(state) {
      const served = JSON.stringify(state.rrsets);
      await store.updateTable('dns_zone').set({ served }).where('item_id', '=', state.itemId).execute();
    },
  };
}
