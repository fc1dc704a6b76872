import type { Store } from '../store/db.ts';

/**
 * The latest job of `kind` for an item, done or not (index job_item_kind): for a change that is
 * applied whole by each job (a zone, a host), the latest one says where the backend stands.
 */
export const latestJob = (store: Store, itemId: number, kind: string, before?: number) => {
  let query = store.selectFrom('job').select(['id', 'status']).where('item_id', '=', itemId).where('kind', '=', kind);
  if (before !== undefined) query = query.where('id', '<', before);
  return query.orderBy('id', 'desc').limit(1).executeTakeFirst();
};
