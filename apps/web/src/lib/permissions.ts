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

/** Reloads the map and answers whether the user may still make the call, read from its entry; when not, "no permission" shows. */
export type PermissionCheck = (call: Route) => Promise<boolean>;

/**
 * The one permission hook of the screens: the item's map (one request per item, shared by every
 * screen of that item), `canCall(entry)` on it (the contract's rule, read from the call's entry) to
 * show or hide controls, and `check(call)`, the re-check every write makes before it is sent: the
 * one mutation hook (components/ui/useFormMutation.ts) calls it with the entry of the call it sends,
 * whose permission names the areas and the level (a screen never names them). `refetch()` reloads;
 * `reloadPermissions()` does it from outside.
 */
export function usePermissions(itemId: number | string, options: PermissionOptions = {}) {
  const query = useQuery(itemPermissionsQuery(itemId));
  const map = query.data?.permissions;
  const { refetch } = query;
  const { reload } = options;
  const check: PermissionCheck = useCallback(
    async (call: Route) => {
      let fresh: PermissionMap | undefined;
      try {
        fresh = reload ? await reload() : (await refetch()).data?.permissions;
      } catch (error) {
        notifyError(error);
        return false;
      }
      if (canCall(fresh, call.permission)) return true;
      notifyNoPermission();
      return false;
    },
    [reload, refetch],
  );
  return {
    ...query,
    map,
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

/** `canCall` on a call's entry, for a screen that holds the map itself (the domain answer carries it). */
export const allowsCall = (map: PermissionMap | undefined, call: Route) => canCall(map, call.permission);

/** Whether the map shows what a call changes (read on one of its areas): a reader sees the data a writer edits. */
export function seesCall(map: PermissionMap | undefined, call: Route): boolean {
  const { permission } = call;
  if ('area' in permission) return canSee(map, permission.area);
  if ('anyOf' in permission) return permission.anyOf.some((area) => canSee(map, area));
  return canCall(map, permission);
}

/**
 * An `anyOf` call narrowed to the one area it touches, as the server's loader narrows it once it
 * knows the toggle or the job: the area comes from the contract (`TOGGLE_AREA`), never from a screen.
 */
export function narrowTo(call: Route, area: Area): Route {
  const { permission } = call;
  if (!('anyOf' in permission) || !permission.anyOf.includes(area)) throw new Error(`${call.path} does not narrow to ${area}`);
  return { ...call, permission: { area, level: permission.level } };
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
