import type { JobHandlers } from '../../outbox/outbox.ts';
import type { Runtime } from '../../runtime.ts';
import { now } from '../../store/db.ts';
import type { RRset } from './rrsets.ts';

export const APPLY_ZONE = 'dns.apply-zone';

export interface ApplyZonePayload {
  itemId: number;
  zone: string;
  version: number;
  rrsets: RRset[];
}

/** The DNS area's job handler: applies a zone's desired state with the runtime's DNS driver. */
export function dnsJobs({ store, drivers }: Runtime): JobHandlers {
  return {
    /** A job older than the zone's current version is skipped: a newer job carries the newer state, so a retried old job never overwrites a newer change. */
    [APPLY_ZONE]: async (raw) => {
      const payload = raw as ApplyZonePayload;
      const zone = await store.selectFrom('dns_zone').select('version').where('item_id', '=', payload.itemId).executeTakeFirst();
      if (!zone || zone.version > payload.version) return;
      await drivers.dns.applyZone({ itemId: payload.itemId, name: payload.zone, version: payload.version, rrsets: payload.rrsets });
      await store
        .updateTable('dns_zone')
        .set({ applied_version: payload.version, applied_at: now() })
        .where('item_id', '=', payload.itemId)
        .where('applied_version', '<', payload.version)
        .execute();
    },
  };
}
