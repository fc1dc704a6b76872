import { createContext, type ReactNode } from 'react';
import type { Location } from './history.ts';
import type { Params } from './match.ts';

/** The location the panel shows: during a navigation that waits for a screen's code, still the old one. */
export const LocationContext = createContext<Location>({ pathname: '/', search: '' });

/** What a route's screen sees: the parameters of the whole match, the screen below it, and the error its boundary caught. */
export interface RouteView {
  params: Params;
  outlet: ReactNode;
  error?: unknown;
}

export const RouteContext = createContext<RouteView>({ params: {}, outlet: null });
