import type { Transaction } from 'kysely';
import { ApiError } from '../../http/errors.ts';
import { isStoredId } from '../../http/ids.ts';
import type { Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import type { ItemRequest, ServiceAccess } from '../permission/access.ts';
import { partsOf } from './snapshot.ts';

const notFound = () => new ApiError(404, 'backups.not_found');

/**
 * The backup a call names (`:snapshot`), of the path's service: another service's or realm's id is
 * not found, as is one retention has forgotten.
 */
export async function backupOf(request: ItemRequest<ServiceAccess> & { params: { snapshot: string } }) {
  const id = Number(request.params.snapshot);
  if (!/^[1-9]\d{0,9}$/.test(request.params.snapshot) || !isStoredId(id)) throw notFound();
  const row = await request.server.runtime.store
    .selectFrom('backup')
    .selectAll()
    .where('id', '=', id)
    .where('item_id', '=', request.access.itemId)
    .where('forgotten_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** A backup that finished, to browse, download or restore from; one queued, running or failed holds nothing to read. */
export async function doneBackupOf(request: Parameters<typeof backupOf>[0]) {
  const row = await backupOf(request);
  if (row.status !== 'done') throw new ApiError(409, 'backups.not_done');
  return { row, parts: partsOf(row) };
}

/**
 * Holds the service's row for the rest of the transaction (PostgreSQL; SQLite's transactions
 * already run one at a time): two calls at once see each other's backup or restore, so "one at a
 * time" and the day's limit hold.
 */
export async function lockService(trx: Transaction<Database>, kind: Store['kind'], itemId: number) {
  if (kind !== 'postgres') return;
  await trx.selectFrom('service').select('item_id').where('item_id', '=', itemId).forUpdate().execute();
}
