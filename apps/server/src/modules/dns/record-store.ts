import type { Transaction } from 'kysely';
import { now, type Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { rrsetKey } from './history/record.ts';
import type { DnsRecordRow } from './tables.ts';
import type { NewRecord } from './template.ts';

// A zone's records in the store, read and written by runs (never one condition or statement per
// record): the zone's changes (zone.ts) and its apply job (jobs.ts) share them.

type Db = Store | Transaction<Database>;

/** One name and type of the zone: the unit PowerDNS replaces or deletes. */
export interface RRsetKey {
  /** Relative to the zone, '' at the apex, as dns_record.zona. */
  zona: string;
  type: string;
}

export const loadRecords = (db: Db, itemId: number): Promise<DnsRecordRow[]> =>
  db.selectFrom('dns_record').selectAll().where('item_id', '=', itemId).orderBy('zona').orderBy('type').orderBy('id').execute();

/**
 * Names or rows per statement: a statement's parameters stay far below SQLite's 32,766 and
 * PostgreSQL's 65,535 (a row of dns_record is 8), however large the zone.
 */
export const STATEMENT_CHUNK = 1000;

/** `list` cut into runs of at most `size`. */
export function chunks<T>(list: T[], size = STATEMENT_CHUNK): T[][] {
  const runs: T[][] = [];
  for (let from = 0; from < list.length; from += size) runs.push(list.slice(from, from + size));
  return runs;
}

export async function insertRecords(trx: Db, itemId: number, records: NewRecord[]) {
  const t = now();
  for (const run of chunks(records)) {
    await trx
      .insertInto('dns_record')
      .values(run.map((r) => ({ ...r, item_id: itemId, created_at: t })))
      .execute();
  }
}

/** The RRsets' names, each once, in order: the runs of names `loadSets` and `deleteSets` read. */
const namesOf = (keys: RRsetKey[]) => [...new Set(keys.map((k) => k.zona))].sort();

/**
 * The records of some RRsets (or, with none named, of the whole zone), in the store's order. Read
 * by runs of names (`zona IN (…)`, the types kept here), never one condition per RRset: an OR of
 * 1,000 RRsets is deeper than SQLite parses ("Expression tree is too large").
 */
export async function loadSets(db: Db, itemId: number, keys: RRsetKey[] | null): Promise<DnsRecordRow[]> {
  if (keys === null) return loadRecords(db, itemId);
  const wanted = new Set(keys.map(rrsetKey));
  const found: DnsRecordRow[] = [];
  for (const names of chunks(namesOf(keys))) {
    const rows = await db
      .selectFrom('dns_record')
      .selectAll()
      .where('item_id', '=', itemId)
      .where('zona', 'in', names)
      .orderBy('zona')
      .orderBy('type')
      .orderBy('id')
      .execute();
    for (const r of rows) if (wanted.has(rrsetKey(r))) found.push(r);
  }
  return found;
}

/** Deletes records by id, by runs of ids (one statement per run, like `insertRecords`). */
export async function deleteRecords(trx: Db, ids: number[]) {
  for (const run of chunks(ids)) await trx.deleteFrom('dns_record').where('id', 'in', run).execute();
}
