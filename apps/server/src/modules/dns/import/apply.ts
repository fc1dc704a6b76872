import { ApiError } from '../../../http/errors.ts';
import type { Store } from '../../../store/db.ts';
import type { ZoneAuthor } from '../history/record.ts';
import { rrsetKey } from '../history/record.ts';
import { deleteRecords, insertRecords } from '../record-store.ts';
import type { DnsRecordRow } from '../tables.ts';
import type { NewRecord } from '../template.ts';
import { changeZone } from '../zone.ts';
import type { ImportPlan } from './plan.ts';

/**
 * Applies a plan made against the zone as it is inside the change's transaction (never against
 * the preview the customer saw, which may be stale): every RRset it changes is rewritten, all in
 * one change of the zone, so the backend gets one patch of exactly those RRsets, or nothing.
 */
export function applyPlan(store: Store, itemId: number, author: ZoneAuthor, plan: (current: DnsRecordRow[], zone: string) => ImportPlan) {
  return changeZone(store, itemId, author, async (trx, records, zone, touch) => {
    const made = plan(records, zone);
    // Refused rather than applied as nothing: the transaction rolls back, so the zone keeps its
    // serial and no apply job runs for a change that changes nothing.
    if (made.sets.size === 0) throw new ApiError(409, 'dns.import_nothing');
    // The records read in this transaction, after the zone's row was locked: exactly what is there.
    await deleteRecords(
      trx,
      records.filter((r) => made.sets.has(rrsetKey(r))).map((r) => r.id),
    );
    const written: NewRecord[] = [];
    for (const [key, sets] of made.sets) {
      for (const r of sets) {
        written.push({ zona: r.zona, type: r.type, ttl: r.ttl, priority: r.priority, value: r.value, dynamic_value: r.dynamic_value });
      }
      const [zona, type] = key.split('\u0000');
      touch({ zona, type });
    }
    await insertRecords(trx, itemId, written);
    return made;
  });
}
