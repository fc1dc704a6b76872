import type { FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import { now } from '../../../store/db.ts';
import type { Database } from '../../../store/schema.ts';
import type { DnsRecordRow } from '../tables.ts';
import type { NewRecord } from '../template.ts';

/** Who changes a zone, and how: every change of a zone names both, for its history. */
export interface ZoneAuthor {
  kind: 'create' | 'save' | 'delete' | 'restore' | 'delete-all' | 'import' | 'template' | 'revert' | 'mail';
  by: string;
  /** The change a revert undoes. */
  reverts?: number;
}

/** The author of a call: the signed-in user (user@realm) or the API token that made it. */
export function authorOf(request: FastifyRequest, kind: ZoneAuthor['kind']): ZoneAuthor {
  const user = request.user;
  const name = user ? `${user.username}@${user.realmName}` : '';
  return { kind, by: request.apiToken ? `${name} (API: ${request.apiToken.name})` : name };
}

/**
 * Changes kept per zone: the newest ones, like the activity log's retention but by count, since a
 * zone changed rarely keeps its old changes and a busy one cannot grow without bound.
 */
export const HISTORY_PER_ZONE = 50;

/** A record as the history keeps it: enough to write it back exactly (its dynamic value too). */
export type KeptRecord = NewRecord;

export const rrsetKey = (r: { zona: string; type: string }) => `${r.zona}\u0000${r.type}`;

/** Records by RRset, each set's records in the order given (one pass: a zone of 10,000 sets or one set of 10,000). */
export function groupSets<T extends { zona: string; type: string }>(records: T[]): Map<string, T[]> {
  const sets = new Map<string, T[]>();
  for (const r of records) {
    const key = rrsetKey(r);
    const set = sets.get(key);
    if (set) set.push(r);
    else sets.set(key, [r]);
  }
  return sets;
}

const keep = (r: DnsRecordRow): KeptRecord => ({
  zona: r.zona,
  type: r.type,
  ttl: r.ttl,
  priority: r.priority,
  value: r.value,
  dynamic_value: r.dynamic_value,
});

/** The records of each RRset, in the order they are stored (their ids), as one comparable text. */
function bySet(records: KeptRecord[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const [key, rs] of groupSets(records)) texts.set(key, JSON.stringify(rs));
  return texts;
}

/** The RRsets that differ between two states of (part of) a zone, as the records before and after. */
export function changedSets(before: KeptRecord[], after: KeptRecord[]) {
  const b = bySet(before);
  const a = bySet(after);
  const keys = new Set<string>();
  for (const k of b.keys()) if (b.get(k) !== a.get(k)) keys.add(k);
  for (const k of a.keys()) if (b.get(k) !== a.get(k)) keys.add(k);
  const inKeys = (r: KeptRecord) => keys.has(rrsetKey(r));
  return { keys, before: before.filter(inKeys), after: after.filter(inKeys) };
}

/**
 * Writes one change into the zone's history, in the change's transaction, and drops the oldest
 * beyond HISTORY_PER_ZONE. A change that changed nothing leaves no line. Answers the line's id.
 */
export async function recordChange(
  trx: Transaction<Database>,
  itemId: number,
  author: ZoneAuthor,
  before: DnsRecordRow[],
  after: DnsRecordRow[],
): Promise<number | null> {
  const changed = changedSets(before.map(keep), after.map(keep));
  if (changed.keys.size === 0) return null;
  const { id } = await trx
    .insertInto('dns_change')
    .values({
      item_id: itemId,
      at: now(),
      kind: author.kind,
      by: author.by,
      before: JSON.stringify(changed.before),
      after: JSON.stringify(changed.after),
      reverts: author.reverts ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const old = await trx
    .selectFrom('dns_change')
    .select('id')
    .where('item_id', '=', itemId)
    .orderBy('id', 'desc')
    .offset(HISTORY_PER_ZONE)
    .limit(1)
    .executeTakeFirst();
  if (old) await trx.deleteFrom('dns_change').where('item_id', '=', itemId).where('id', '<=', old.id).execute();
  return id;
}
