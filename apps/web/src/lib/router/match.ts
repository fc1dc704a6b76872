import type { ComponentType, ReactNode } from 'react';

/**
 * A route of the panel's table (app/router.tsx). `path` is absolute ("/admin/") or relative to the
 * parent's ("domain/"), made of fixed segments, `:name` parameters and a final `*`; a route without
 * `path` is a layout around its children; `index` matches where its parent's path ends.
 */
export interface Route {
  path?: string;
  index?: boolean;
  element?: ReactNode;
  Component?: ComponentType;
  /** The screen's code, fetched the first time the route matches; the old screen stays until it arrives. */
  lazy?: () => Promise<{ Component: ComponentType }>;
  /** Shown in the route's place when it, or a route below it, throws or cannot load its code. */
  ErrorBoundary?: ComponentType;
  children?: Route[];
}

export type Params = Record<string, string>;

export interface Match {
  route: Route;
  /** Where the route sits in the table ("0.2.1"): the same route keeps its screen across navigations. */
  key: string;
}

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

function decode(segment: string) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Consumes `pattern`'s segments from the front of `rest`: the segments left, or null. Fixed segments ignore case. */
function consume(pattern: string[], rest: string[], params: Params): string[] | null {
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i];
    if (want === '*') {
      params['*'] = rest.slice(i).map(decode).join('/');
      return [];
    }
    const have = rest[i];
    if (have === undefined) return null;
    if (want.startsWith(':')) params[want.slice(1)] = decode(have);
    else if (want.toLowerCase() !== have.toLowerCase()) return null;
  }
  return rest.slice(pattern.length);
}

function matchIn(routes: Route[], rest: string[], params: Params, parentKey: string): Match[] | null {
  for (const [position, route] of routes.entries()) {
    const key = parentKey ? `${parentKey}.${position}` : String(position);
    if (route.index) {
      if (rest.length === 0) return [{ route, key }];
      continue;
    }
    const own: Params = {};
    const left = route.path === undefined ? rest : consume(segmentsOf(route.path), rest, own);
    if (!left) continue;
    const below = route.children ? matchIn(route.children, left, own, key) : null;
    // A layout matches only through a child; a route with a path also when it takes the whole rest.
    if (below || (route.path !== undefined && left.length === 0)) {
      Object.assign(params, own);
      return [{ route, key }, ...(below ?? [])];
    }
  }
  return null;
}

/**
 * The chain of routes that `pathname` reaches, outermost first, and their parameters; null when none
 * does. The table is tried in order: a fixed path must come before a parameter that would take it.
 */
export function matchRoutes(routes: Route[], pathname: string): { matches: Match[]; params: Params } | null {
  const params: Params = {};
  const matches = matchIn(routes, segmentsOf(pathname), params, '');
  return matches ? { matches, params } : null;
}

/** `pattern` ("/admin/:id/*") against a whole pathname: its parameters, or null. */
export function matchPath(pattern: string, pathname: string): { params: Params } | null {
  const params: Params = {};
  const left = consume(segmentsOf(pattern), segmentsOf(pathname), params);
  return left && left.length === 0 ? { params } : null;
}

/** `to` as the address bar would read it from `from` (a pathname): "ftp/" from "/admin/5/service/" is "/admin/5/service/ftp/". */
export function resolvePath(to: string, from: string): string {
  const url = new URL(to, `http://panel${from}`);
  return url.pathname + url.search + url.hash;
}
