/**
 * One row per item a user sees in one of the three lists (migration 0016_paging): derived from the
 * permission rows and the item's kinds, written where those are written (grant, the bulk seed),
 * so a page and its count read one index range instead of checking permissions row by row.
 */
export interface ListEntryTable {
  user_id: number;
  kind: 'domain' | 'service' | 'mail';
  item_id: number;
  /** The item's search text (item.search), copied: references never change. */
  search: string;
  /**
   * The kind's expiry (domain, service or mail_service.expire_at), copied for the expiry sort: it is
   * set when the item is created; a domain's follows its expiry (a trigger of 0035), and whatever
   * comes to renew a service or mail must refresh the entries too (refreshListEntries).
   */
  expire_at: number;
}

/** How many entries a user has in each list: kept by refreshListEntries, read by the unfiltered first page. */
export interface ListTotalTable {
  user_id: number;
  kind: 'domain' | 'service' | 'mail';
  total: number;
}

export type ListTables = { list_entry: ListEntryTable; list_total: ListTotalTable };
