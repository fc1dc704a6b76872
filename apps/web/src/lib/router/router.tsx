import { Component, type ComponentType, type ReactNode, startTransition, useEffect, useState } from 'react';
import { LocationContext, RouteContext } from './context.ts';
import { currentLocation, type Location, listen } from './history.ts';
import { Outlet } from './links.tsx';
import { type Match, matchRoutes, type Params, type Route } from './match.ts';

/** What the panel shows: the location, the routes it reached, and the route whose code failed to load. */
export interface RouterState {
  location: Location;
  matches: Match[];
  params: Params;
  failed?: { at: number; error: unknown };
}

/**
 * The panel's router: follows the address, fetches the matched routes' code (`lazy`, all at once)
 * and only then shows the new location, so a navigation keeps the old screen until the new one can
 * render. Made when the panel's chunk arrives, it starts fetching the first screen's code at once.
 */
export function createRouter(routes: Route[]) {
  const loaded = new Map<Route, ComponentType>();
  const loading = new Map<Route, Promise<ComponentType>>();
  const subscribers = new Set<() => void>();
  let state: RouterState | null = null;
  let latest = 0;

  const load = (route: Route) => {
    let promise = loading.get(route);
    if (!promise) {
      promise = route.lazy!().then(
        ({ Component }) => {
          loaded.set(route, Component);
          return Component;
        },
        (error: unknown) => {
          // Not kept: the next navigation to the route tries again.
          loading.delete(route);
          throw error;
        },
      );
      loading.set(route, promise);
    }
    return promise;
  };

  async function follow() {
    const ticket = ++latest;
    const location = currentLocation();
    const found = matchRoutes(routes, location.pathname) ?? { matches: [], params: {} };
    const pending = found.matches.filter((match) => match.route.lazy && !loaded.has(match.route));
    let failed: RouterState['failed'];
    if (pending.length > 0) {
      const results = await Promise.allSettled(pending.map((match) => load(match.route)));
      // A later navigation won meanwhile.
      if (ticket !== latest) return;
      const first = results.findIndex((result) => result.status === 'rejected');
      if (first >= 0) failed = { at: found.matches.indexOf(pending[first]), error: (results[first] as PromiseRejectedResult).reason };
    }
    state = { location, ...found, failed };
    for (const notify of subscribers) notify();
  }

  listen(() => void follow());
  void follow();
  return {
    getState: () => state,
    subscribe(notify: () => void) {
      subscribers.add(notify);
      return () => void subscribers.delete(notify);
    },
    componentOf: (route: Route) => route.Component ?? loaded.get(route),
  };
}

export type Router = ReturnType<typeof createRouter>;

interface BoundaryProps {
  fallback: ComponentType;
  params: Params;
  /** The location: a navigation clears a caught error. */
  at: string;
  children: ReactNode;
}

/** A route's error boundary: what its screen (or a screen below) throws shows the route's `ErrorBoundary` instead. */
class RouteBoundary extends Component<BoundaryProps, { error?: { thrown: unknown }; at: string }> {
  state: { error?: { thrown: unknown }; at: string } = { at: this.props.at };
  static getDerivedStateFromError(thrown: unknown) {
    return { error: { thrown } };
  }
  static getDerivedStateFromProps(props: BoundaryProps, state: { at: string }) {
    return props.at === state.at ? null : { error: undefined, at: props.at };
  }
  render() {
    const { fallback, params, children } = this.props;
    if (!this.state.error) return children;
    return <ErrorScreen screen={fallback} params={params} error={this.state.error.thrown} />;
  }
}

/** An error boundary's screen, given what was thrown (`useRouteError`). */
function ErrorScreen({ screen: Screen, params, error }: { screen: ComponentType; params: Params; error: unknown }) {
  return (
    <RouteContext.Provider value={{ params, outlet: null, error }}>
      <Screen />
    </RouteContext.Provider>
  );
}

/** Index of the route whose boundary shows a failure at `at`: that route or the nearest above it; -1 for none. */
function boundaryFor(matches: Match[], at: number) {
  for (let i = at; i >= 0; i--) if (matches[i].route.ErrorBoundary) return i;
  return -1;
}

/** The matched routes, outermost first, each screen given the next as its `<Outlet />`. */
function renderMatches(router: Router, { location, matches, params, failed }: RouterState, fallback: ComponentType) {
  const at = location.pathname + location.search;
  const caughtAt = failed ? boundaryFor(matches, failed.at) : matches.length - 1;
  if (failed && caughtAt < 0) return <ErrorScreen screen={fallback} params={params} error={failed.error} />;
  let outlet: ReactNode = null;
  for (let i = caughtAt; i >= 0; i--) {
    const { route, key } = matches[i];
    const Screen = failed && i === caughtAt ? route.ErrorBoundary! : router.componentOf(route);
    const error = failed && i === caughtAt ? failed.error : undefined;
    let view: ReactNode = (
      <RouteContext.Provider key={key} value={{ params, outlet, error }}>
        {Screen ? <Screen /> : (route.element ?? <Outlet />)}
      </RouteContext.Provider>
    );
    if (route.ErrorBoundary && !error) {
      view = (
        <RouteBoundary key={key} fallback={route.ErrorBoundary} params={params} at={at}>
          {view}
        </RouteBoundary>
      );
    }
    outlet = view;
  }
  return outlet;
}

/**
 * Shows what `router` reached. Each navigation renders as a transition, in slices, like the first
 * render (start.tsx). `fallback`: the page when a route's code fails to load and no route above it
 * has an error boundary.
 */
export function RouterView({ router, fallback }: { router: Router; fallback: ComponentType }) {
  const [state, setState] = useState(router.getState);
  useEffect(() => {
    const show = () => startTransition(() => setState(router.getState()));
    // The router may have moved on between the first render and now.
    show();
    return router.subscribe(show);
  }, [router]);
  if (!state) return null;
  return <LocationContext.Provider value={state.location}>{renderMatches(router, state, fallback)}</LocationContext.Provider>;
}
