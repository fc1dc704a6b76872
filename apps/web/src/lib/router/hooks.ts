import { useCallback, useContext, useMemo } from 'react';
import { LocationContext, RouteContext } from './context.ts';
import { go } from './history.ts';
import { matchPath, type Params, resolvePath } from './match.ts';

export const useLocation = () => useContext(LocationContext);

/** The parameters of the current route (`:id`). */
export const useParams = (): Params => useContext(RouteContext).params;

/** In a route's error boundary: what was thrown, or the screen's code that failed to load. */
export const useRouteError = (): unknown => useContext(RouteContext).error;

export type NavigateOptions = { replace?: boolean };

/** Goes to a path, absolute or relative to the current one ("ftp/"). */
export function useNavigate() {
  const { pathname } = useLocation();
  return useCallback((to: string, options?: NavigateOptions) => go(resolvePath(to, pathname), options), [pathname]);
}

/** `pattern` ("/admin/:id/*") against the current path: its parameters, or null. */
export function useMatch(pattern: string) {
  const { pathname } = useLocation();
  return useMemo(() => matchPath(pattern, pathname), [pattern, pathname]);
}

type SearchUpdate = URLSearchParams | ((old: URLSearchParams) => URLSearchParams);

/** The query of the address, and a setter that writes a new one (a new history entry unless `replace`). */
export function useSearchParams() {
  const { pathname, search } = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback(
    (next: SearchUpdate, options?: NavigateOptions) => {
      const query = (typeof next === 'function' ? next(new URLSearchParams(search)) : next).toString();
      go(query ? `${pathname}?${query}` : pathname, options);
    },
    [pathname, search],
  );
  return [params, setParams] as const;
}
