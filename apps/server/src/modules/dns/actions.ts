import { type DnsType, hasPriority } from '@atalaya/contract';
import type { Transaction } from 'kysely';
import { ApiError, notFound } from '../../http/errors.ts';
import { now, type Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import type { ZoneAuthor } from './history/record.ts';
import { normaliseZona } from './names.ts';
import { presenter } from './present.ts';
import { insertRecords } from './record-store.ts';
import { checkZoneRules, deleteBlockers, keptByDeleteAll } from './rules.ts';
import type { DnsRecordRow } from './tables.ts';
import { normalisePriority, normaliseValue } from './values.ts';
import { changeZone, type DnsContext, zoneDefaults } from './zone.ts';

export interface RecordInput {
  value: string;
  ttl: number;
  priority?: number | '';
}

/** Records of one name and type share one TTL when served, so a new TTL applies to the whole RRset. */
async function syncTtl(trx: Transaction<Database>, itemId: number, row: DnsRecordRow) {
  await trx
    .updateTable('dns_record')
    .set({ ttl: row.ttl })
    .where('item_id', '=', itemId)
    .where('zona', '=', row.zona)
    .where('type', '=', row.type)
    .execute();
}

export function createRecord(store: Store, itemId: number, input: RecordInput & { type: DnsType; zona: string }, author: ZoneAuthor) {
  return changeZone(store, itemId, author, async (trx, records, zone, touch) => {
    const zona = normaliseZona(input.zona, zone, input.type);
    const value = normaliseValue(input.type, input.value);
    const priority = normalisePriority(input.type, input.priority);
    checkZoneRules({ zona, type: input.type, priority, value }, records, zone);
    const row = await trx
      .insertInto('dns_record')
      .values({ item_id: itemId, zona, type: input.type, ttl: input.ttl, priority, value, dynamic_value: null, created_at: now() })
      .returningAll()
      .executeTakeFirstOrThrow();
    await syncTtl(trx, itemId, row);
    touch({ zona, type: input.type });
    return presenter([...records, row], zone)(row);
  });
}

export function saveRecord(store: Store, itemId: number, recordId: number, input: RecordInput, author: ZoneAuthor) {
  return changeZone(store, itemId, author, async (trx, records, zone, touch) => {
    const old = records.find((r) => r.id === recordId);
    if (!old) throw notFound();
    const type = old.type as DnsType;
    const value = normaliseValue(type, input.value);
    const priority = hasPriority(type) ? normalisePriority(type, input.priority) : null;
    const others = records.filter((r) => r.id !== recordId);
    checkZoneRules({ zona: old.zona, type, priority, value }, others, zone);
    const changed = value !== old.value || priority !== old.priority;
    const row = { ...old, value, priority, ttl: input.ttl, dynamic_value: changed ? null : old.dynamic_value };
    await trx
      .updateTable('dns_record')
      .set({ value, priority, ttl: row.ttl, dynamic_value: row.dynamic_value })
      .where('id', '=', recordId)
      .execute();
    await syncTtl(trx, itemId, row);
    touch({ zona: old.zona, type });
    return presenter([...others, row], zone)(row);
  });
}

export function deleteRecord(store: Store, itemId: number, recordId: number, author: ZoneAuthor) {
  return changeZone(store, itemId, author, async (trx, records, zone, touch) => {
    const record = records.find((r) => r.id === recordId);
    if (!record) throw notFound();
    const blocker = deleteBlockers(records, zone)(record);
    if (blocker) throw new ApiError(409, blocker.key, blocker.params);
    await trx.deleteFrom('dns_record').where('id', '=', recordId).execute();
    touch({ zona: record.zona, type: record.type });
  });
}

async function deleteIds(trx: Transaction<Database>, ids: number[]) {
  for (let i = 0; i < ids.length; i += 500) {
    await trx
      .deleteFrom('dns_record')
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
  }
}

/** Every record goes, then the provider's template comes back, in one transaction. */
export function restoreDefaults(store: Store, ctx: DnsContext, itemId: number, author: ZoneAuthor) {
  return changeZone(store, itemId, author, async (trx, _records, zone) => {
    await trx.deleteFrom('dns_record').where('item_id', '=', itemId).execute();
    const defaults = await zoneDefaults(trx, ctx, itemId, zone);
    await insertRecords(trx, itemId, [...defaults, ...((await ctx.published?.(trx, itemId, zone, defaults)) ?? [])]);
  });
}

/** Deletes every eliminable record: all but the apex NS set and the addresses its in-zone servers need. */
export function deleteAll(store: Store, itemId: number, author: ZoneAuthor) {
  return changeZone(store, itemId, author, async (trx, records, zone) => {
    const kept = keptByDeleteAll(records, zone);
    await deleteIds(
      trx,
      records.filter((r) => !kept(r)).map((r) => r.id),
    );
  });
}
