import { type Area, canAct, canSee, type Permission, type PermissionMap, type PermissionSet } from '@atalaya/contract';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { fetchData } from './api.ts';
import { endpoints, type Route } from './endpoints.ts';
import { notifyError, notifyNoPermission } from './notify.ts';

export { canAct, canSee };

/** POST /permission/{id}/: the user's permission map on one item, plus the breadcrumb expiry data. */
export type ItemPermissions = PermissionSet;

export const itemPermissionsKey = (itemId: number | string) => ['permission', Number(itemId)] as const;

export const itemPermissionsQuery = (itemId: number | string) =>
  queryOptions({
    queryKey: itemPermissionsKey(itemId),
    queryFn: () => fetchData(endpoints.account.permission, { id: Number(itemId) }),
    staleTime: 30_000,
  });

interface PermissionOptions {
  /** Reloads the map another way (the domain call carries it); by default the permission call. */
  reload?: () => Promise<PermissionMap | undefined>;
}

/** Reloads the map and answers whether every area may still act; when one may not, "no permission" shows. */
export type PermissionCheck = (areas: Area | readonly Area[]) => Promise<boolean>;

/**
 * The one permission hook of the screens: the item's map (one request per item, shared by every
 * screen of that item), `canSee`/`canAct` on it (the contract's rule) to show or hide controls,
 * and `check(areas)`, the re-check every write makes before it is sent: the one mutation hook
 * (components/ui/useFormMutation.ts) calls it with the areas the write needs. `refetch()` reloads;
 * `reloadPermissions()` does it from outside.
 */
export function usePermissions(itemId: number | string, options: PermissionOptions = {}) {
  const query = useQuery(itemPermissionsQuery(itemId));
  const map = query.data?.permissions;
  const { refetch } = query;
  const { reload } = options;
  const check: PermissionCheck = useCallback(
    async (areas: Area | readonly Area[]) => {
      let fresh: PermissionMap | undefined;
      try {
        fresh = reload ? await reload() : (await refetch()).data?.permissions;
      } catch (error) {
        notifyError(error);
        return false;
      }
      if ((typeof areas === 'string' ? [areas] : areas).every((area) => canAct(fresh, area))) return true;
      notifyNoPermission();
      return false;
    },
    [reload, refetch],
  );
  return {
    ...query,
    map,
    canSee: (area: Area) => canSee(map, area),
    canAct: (area: Area) => canAct(map, area),
    canCall: (call: Route) => canCall(map, call.permission),
    check,
  };
}

/**
 * Whether the item's map lets the user make a call, read from the call's entry as the server reads
 * it: a button whose call would answer 403 or 404 is not shown (the password view, for instance,
 * needs write).
 */
export function canCall(map: PermissionMap | undefined, permission: Permission): boolean {
  if ('public' in permission || 'session' in permission) return true;
  // An operator call is a billing system's, never a signed-in user's (decision 037).
  if ('operator' in permission) return false;
  const areas = 'area' in permission ? [permission.area] : permission.anyOf;
  const allowed = permission.level === 'write' ? areas.some((a) => canAct(map, a)) : areas.some((a) => canSee(map, a));
  const also = 'alsoWrite' in permission ? (permission.alsoWrite ?? []) : [];
  return allowed && also.every((a) => canAct(map, a));
}

/** Reload one item's permissions, or all of them (the websocket's {"type":"menu"}). */
export const reloadPermissions = (client: QueryClient, itemId?: number | string) =>
  client.invalidateQueries({ queryKey: itemId === undefined ? ['permission'] : itemPermissionsKey(itemId) });

/** A response that carries fresh permissions (the domain call does) replaces the cached map at once. */
export function setItemPermissions(client: QueryClient, itemId: number | string, permissions: PermissionMap) {
  client.setQueryData(itemPermissionsKey(itemId), (old: ItemPermissions | undefined) => (old ? { ...old, permissions } : old));
}

/** True when at least one area of the list is visible: a page is a 404 otherwise (docs/behaviour/shell-session-domains.md#permissions). */
export const canSeeAny = (map: PermissionMap | undefined, areas: readonly Area[]) => areas.some((area) => canSee(map, area));

/**
 * GET /list/kinds/: which of the domain, service and mail lists the user has at all (the side
 * menu's entries). The SPA never loads every item: each list screen asks for one page
 * (docs/decisions/025-paged-lists.md).
 */
export const listKindsQuery = queryOptions({
  queryKey: ['permission', 'kinds'],
  queryFn: () => fetchData(endpoints.lists.kinds, {}),
  staleTime: 30_000,
});

export const useListKinds = () => useQuery(listKindsQuery);
