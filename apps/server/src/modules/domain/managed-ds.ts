import type { Store } from '../../store/db.ts';

/**
 * The ids of the DS records the panel placed at the registry for a zone it signs: the domain's
 * DNSSEC list shows them as managed, refuses to delete them by hand, and reconcile never takes
 * them for records the customer removed.
 */
export async function managedDsIds(store: Store, itemId: number): Promise<Set<number>> {
  const rows = await store.selectFrom('dns_managed_ds').select('ds_id').where('item_id', '=', itemId).execute();
  return new Set(rows.map((r) => r.ds_id));
}

/** The DS records the panel placed for the item's zone, oldest first (the zone's DNSSEC steps compare them with what its keys want). */
export const managedDs = (store: Store, itemId: number) =>
  store.selectFrom('dns_managed_ds').selectAll().where('item_id', '=', itemId).orderBy('id').execute();
