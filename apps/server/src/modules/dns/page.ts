import { PAGE_SIZE } from '@atalaya/contract';
import { sql } from 'kysely';
import type { Store } from '../../store/db.ts';
import { RECORD_SEARCH_TEXT } from '../../store/migrations/0021_dns_record_indexes.ts';
import { checkPage, contains, filterWords } from '../lists/query.ts';
import type { DnsRecordRow } from './tables.ts';

export interface RecordPageRequest {
  page: number;
  filter: string;
  type: string;
}

/**
 * Up to this many matches, a filtered page is cut from the matching rows (found through the
 * search index, then sorted); beyond it, the zone is walked in the screen's order until the page
 * is full, which is quick when matches are many and slow when they are rare.
 */
export const FEW_MATCHES = 1_000;

/** A zone's records of one type (or all), each holding every word of the filter. */
export function matchingRecords(store: Store, itemId: number, type: string, words: string[]) {
  let rows = store.selectFrom('dns_record').where('item_id', '=', itemId);
  if (type !== 'ALL') rows = rows.where('type', '=', type);
  // Names are punycode and types ASCII: lower() folds them on both stores. The TTL's label is the
  // reader's language and stays out; its priority and the template's expression are searched.
  // The expression is the search index's (migration 0021).
  for (const word of words) rows = rows.where(contains(store, sql.raw(RECORD_SEARCH_TEXT), word));
  return rows;
}

/**
 * One page of a zone's records in (name, type) order, filtered in the store, so a zone of 50,000
 * records costs one page (docs/decisions/025-paged-lists.md). `context` adds the rows the page's
 * "may it be deleted" answer depends on (every NS record, a few, and the addresses at the page's names),
 * not the whole zone.
 */
export async function recordPage(store: Store, itemId: number, request: RecordPageRequest) {
  const words = filterWords(request.filter);
  const rows = matchingRecords(store, itemId, request.type, words);
  const total = Number((await rows.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  checkPage(request.page, total);
  const matching = words.length > 0 && total <= FEW_MATCHES ? store.selectFrom('dns_record').where('id', 'in', rows.select('id')) : rows;
  const page: DnsRecordRow[] = await matching
    .selectAll()
    .orderBy('zona')
    .orderBy('type')
    .orderBy('id')
    .limit(PAGE_SIZE)
    .offset((request.page - 1) * PAGE_SIZE)
    .execute();
  return { page, context: await pageContext(store, itemId, page), total };
}

/** The zone's NS records and the addresses at the page's names: two index lookups, never the whole zone. */
async function pageContext(store: Store, itemId: number, page: DnsRecordRow[]): Promise<DnsRecordRow[]> {
  const zone = store.selectFrom('dns_record').selectAll().where('item_id', '=', itemId);
  const servers = zone.where('type', '=', 'NS');
  const names = [...new Set(page.map((r) => r.zona))];
  if (names.length === 0) return servers.execute();
  return servers.unionAll(zone.where('zona', 'in', names).where('type', 'in', ['A', 'AAAA'])).execute();
}
