import { PAGE_SIZE } from '@atalaya/contract';
import { sql } from 'kysely';
import type { Store } from '../../store/db.ts';
import { checkPage, contains, filterWords } from '../lists/query.ts';
import type { DnsRecordRow } from './tables.ts';

export interface RecordPageRequest {
  page: number;
  filter: string;
  type: string;
}

/**
 * One page of a zone's records in (name, type) order, filtered in the store, so a zone of 50,000
 * records costs one page (docs/decisions/025-paged-lists.md). `context` adds the rows the page's
 * "may it be deleted" answer depends on (every NS record, a few, and the addresses at the page's names),
 * not the whole zone.
 */
export async function recordPage(store: Store, itemId: number, request: RecordPageRequest) {
  let rows = store.selectFrom('dns_record').where('item_id', '=', itemId);
  if (request.type !== 'ALL') rows = rows.where('type', '=', request.type);
  // Names are punycode and types ASCII: lower() folds them on both stores. The TTL's label is the
  // reader's language and stays out; its priority and the template's expression are searched.
  const haystack = sql.raw(
    `lower(zona || ' ' || type || ' ' || coalesce(cast(priority as text), '') || ' ' || value || ' ' || coalesce(dynamic_value, ''))`,
  );
  for (const word of filterWords(request.filter)) rows = rows.where(contains(store, haystack, word));
  const total = Number((await rows.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  checkPage(request.page, total);
  const page: DnsRecordRow[] = await rows
    .selectAll()
    .orderBy('zona')
    .orderBy('type')
    .orderBy('id')
    .limit(PAGE_SIZE)
    .offset((request.page - 1) * PAGE_SIZE)
    .execute();
  const names = [...new Set(page.map((r) => r.zona))];
  const context: DnsRecordRow[] = await store
    .selectFrom('dns_record')
    .selectAll()
    .where('item_id', '=', itemId)
    .where((eb) =>
      eb.or([eb('type', '=', 'NS'), ...(names.length ? [eb.and([eb('zona', 'in', names), eb('type', 'in', ['A', 'AAAA'])])] : [])]),
    )
    .execute();
  return { page, context, total };
}
