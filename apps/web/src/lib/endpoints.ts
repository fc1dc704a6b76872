import { routes } from 'virtual:atalaya/api-routes';
import type { endpoints as declared, Endpoint } from '@atalaya/contract';

/**
 * A call of the API as the web holds it at run time: its method, path and permission. The rest of
 * the contract's declaration (schemas) is only a type here: the server validates, and the
 * schemas' code (zod) would otherwise load with the sign-in page (apiRoutes.ts).
 */
export interface Route<E extends Endpoint = Endpoint> {
  readonly method: E['method'];
  readonly path: string;
  /** Who may make the call, as the server checks it. */
  readonly permission: E['permission'];
  /** Never set: carries the declaration's type to the API client (lib/api.ts). */
  readonly declared?: E;
}

type Table = typeof declared;
export type Routes = { [A in keyof Table]: { [K in keyof Table[A]]: Table[A][K] extends Endpoint ? Route<Table[A][K]> : never } };

/** The contract's endpoint table, call by call, as built by apiRoutes.ts. */
export const endpoints = routes as Routes;
