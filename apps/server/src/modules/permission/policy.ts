import { type Area, isArea, type PermissionMap } from '@atalaya/contract';
import { isStoredId } from '../../http/ids.ts';
import type { Store } from '../../store/db.ts';
import type { SessionUser } from './caller.ts';

export interface ItemAccess {
  itemId: number;
  reference: string;
  permissions: PermissionMap;
}

/** The user's permission map on an item of their realm; null when the item is not theirs to see. */
export async function loadItemAccess(store: Store, user: SessionUser, itemId: number): Promise<ItemAccess | null> {
  if (!isStoredId(itemId)) return null;
  const rows = await store
    .selectFrom('item')
    .leftJoin('permission', (join) => join.onRef('permission.item_id', '=', 'item.id').on('permission.user_id', '=', user.id))
    .select(['item.id', 'item.reference', 'permission.area', 'permission.level'])
    .where('item.id', '=', itemId)
    .where('item.realm_id', '=', user.realmId)
    .execute();
  if (rows.length === 0) return null;
  const permissions: PermissionMap = {};
  for (const row of rows) {
    if (row.area && isArea(row.area)) permissions[row.area] = row.level as PermissionMap[Area];
  }
  if (!Object.values(permissions).some((level) => level === 'read' || level === 'write')) return null;
  return { itemId: rows[0].id, reference: rows[0].reference, permissions };
}
