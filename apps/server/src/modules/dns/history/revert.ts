import { ApiError, notFound } from '../../../http/errors.ts';
import type { Store } from '../../../store/db.ts';
import { insertRecords } from '../record-store.ts';
import { changeZone } from '../zone.ts';
import { changedSets, type KeptRecord, rrsetKey, type ZoneAuthor } from './record.ts';

/**
 * Puts back the RRsets one change changed as they were before it, as a new change of the zone
 * (itself in the history, so a revert can be reverted). Refused when any of those RRsets is no
 * longer as the change left it: a later change touched them, and undoing ours would undo that too.
 */
export function revertChange(store: Store, itemId: number, changeId: number, author: Omit<ZoneAuthor, 'kind' | 'reverts'>) {
  return changeZone(store, itemId, { ...author, kind: 'revert', reverts: changeId }, async (trx, records, _zone, touch) => {
    const change = await trx
      .selectFrom('dns_change')
      .selectAll()
      .where('item_id', '=', itemId)
      .where('id', '=', changeId)
      .executeTakeFirst();
    if (!change) throw notFound();
    const before = JSON.parse(change.before) as KeptRecord[];
    const after = JSON.parse(change.after) as KeptRecord[];
    const keys = new Set([...before, ...after].map(rrsetKey));
    const now = records
      .filter((r) => keys.has(rrsetKey(r)))
      .map((r) => ({ zona: r.zona, type: r.type, ttl: r.ttl, priority: r.priority, value: r.value, dynamic_value: r.dynamic_value }));
    if (changedSets(after, now).keys.size > 0) throw new ApiError(409, 'dns.revert_changed_since');
    for (const key of keys) {
      const [zona, type] = key.split('\u0000');
      await trx.deleteFrom('dns_record').where('item_id', '=', itemId).where('zona', '=', zona).where('type', '=', type).execute();
      touch({ zona, type });
    }
    await insertRecords(trx, itemId, before);
  });
}
