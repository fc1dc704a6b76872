import { dnsSettings } from '../../drivers/dns/index.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { latestJob } from '../../outbox/history.ts';
import type { JobHandlers } from '../../outbox/outbox.ts';
import { now } from '../../store/db.ts';
import { fqdn } from './names.ts';
import { loadSets, type RRsetKey } from './record-store.ts';
import { toRRsets } from './rrsets.ts';

export const APPLY_ZONE = 'dns.apply-zone';

/**
 * A change of a zone. The job carries no records: its handler reads them as they are when it runs,
 * so a late or repeated job serves the current state. With `changed`, only those RRsets are sent
 * (one record's change is one RRset patch, whatever the zone's size); without, the whole zone.
 */
export interface ApplyZonePayload {
  itemId: number;
  zone: string;
  version: number;
  changed?: RRsetKey[];
}

/** The DNS area's job handler: brings the zone's RRsets (some or all) in line with the records. */
export function dnsJobs({ store, drivers, config }: Runtime): JobHandlers {
  const { defaultTtl } = dnsSettings(config);
  return {
    /**
     * Zone jobs of one item run in commit order (their lane), each serving the records as they are now: a job whose
     * version is already applied has nothing left to do. A zone never applied gets the whole
     * state, whatever the job changed, so the backend has the zone before any patch. So does a
     * job whose previous apply is not done (it failed, or waits for its retry): that one's RRsets
     * may be missing on the server, and once this version is applied its own run changes nothing.
     */
    [APPLY_ZONE]: async (raw, job) => {
      const payload = raw as ApplyZonePayload;
      const zone = await store
        .selectFrom('dns_zone')
        .select(['version', 'applied_version'])
        .where('item_id', '=', payload.itemId)
        .executeTakeFirst();
      if (!zone || zone.applied_version >= payload.version) return;
      let applied = payload.version;
      const previous = await latestJob(store, payload.itemId, APPLY_ZONE, job.id);
      if (payload.changed && zone.applied_version > 0 && (!previous || previous.status === 'done')) {
        const records = await loadSets(store, payload.itemId, payload.changed);
        const rrsets = toRRsets(records, payload.zone, defaultTtl);
        const kept = new Set(rrsets.map((s) => `${s.name} ${s.type}`));
        const gone = payload.changed
          .map((k) => ({ name: `${fqdn(k.zona, payload.zone)}.`, type: k.type }))
          .filter((k) => !kept.has(`${k.name} ${k.type}`));
        await drivers.dns.patchRRsets(payload.zone, rrsets, gone);
      } else {
        // The version read with the records: the SOA serial of the state served.
        const current = await store
          .selectFrom('dns_zone')
          .select('version')
          .where('item_id', '=', payload.itemId)
          .executeTakeFirstOrThrow();
        const records = await store.selectFrom('dns_record').selectAll().where('item_id', '=', payload.itemId).orderBy('id').execute();
        applied = Math.max(payload.version, current.version);
        await drivers.dns.applyZone({
          itemId: payload.itemId,
          name: payload.zone,
          version: current.version,
          rrsets: toRRsets(records, payload.zone, defaultTtl),
        });
      }
      await store
        .updateTable('dns_zone')
        .set({ applied_version: applied, applied_at: now() })
        .where('item_id', '=', payload.itemId)
        .where('applied_version', '<', applied)
        .execute();
    },
  };
}
