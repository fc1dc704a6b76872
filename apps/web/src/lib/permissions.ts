import { type Area, canAct, canSee, type PermissionItem, type PermissionMap, type PermissionSet } from '@atalaya/contract';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { get, post } from './api.ts';

export { canAct, canSee };

/** POST /permission/{id}/: the user's permission map on one item, plus the breadcrumb expiry data. */
export type ItemPermissions = PermissionSet;

export const itemPermissionsKey = (itemId: number | string) => ['permission', Number(itemId)] as const;

export const itemPermissionsQuery = (itemId: number | string) =>
  queryOptions({
    queryKey: itemPermissionsKey(itemId),
    queryFn: () => post<ItemPermissions>(`permission/${Number(itemId)}/`),
    staleTime: 30_000,
  });

/**
 * The permissions of one item, shared by every screen of that item (one request per item).
 * `refetch()` reloads them; `reloadPermissions()` does it from outside a component.
 */
export function useItemPermissions(itemId: number | string) {
  const query = useQuery(itemPermissionsQuery(itemId));
  const map = query.data?.permissions;
  return {
    ...query,
    map,
    canSee: (area: Area) => canSee(map, area),
    canAct: (area: Area) => canAct(map, area),
  };
}

/** Reload one item's permissions, or all of them (the websocket's {"type":"menu"}). */
export const reloadPermissions = (client: QueryClient, itemId?: number | string) =>
  client.invalidateQueries({ queryKey: itemId === undefined ? ['permission'] : itemPermissionsKey(itemId) });

/** A response that carries fresh permissions (the domain call does) replaces the cached map at once. */
export function setItemPermissions(client: QueryClient, itemId: number | string, permissions: PermissionMap) {
  client.setQueryData(itemPermissionsKey(itemId), (old: ItemPermissions | undefined) => (old ? { ...old, permissions } : old));
}

/** True when at least one area of the list is visible: a page is a 404 otherwise (spec §6). */
export const canSeeAny = (map: PermissionMap | undefined, areas: readonly Area[]) => areas.some((area) => canSee(map, area));

/** GET /permission/list/: every item the user may see, with the kinds it has (spec §3). */
export type PermissionListItem = PermissionItem;

export const permissionListQuery = queryOptions({
  queryKey: ['permission', 'list'],
  queryFn: () => get<PermissionListItem[]>('permission/list/'),
  staleTime: 30_000,
});

export const usePermissionList = () => useQuery(permissionListQuery);
