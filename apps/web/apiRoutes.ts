import type { Plugin } from 'vite';

/** The module the web imports its endpoint table from (src/lib/endpoints.ts). */
export const API_ROUTES = 'virtual:atalaya/api-routes';
const RESOLVED = `\0${API_ROUTES}`;

/**
 * The contract's endpoint table reduced to what the browser uses of it: each call's method, path
 * and permission (a screen shows an action only to whom the call would answer). The contract
 * declares every call with its zod schemas, and the web never runs them (the server validates);
 * importing the table itself put zod and every schema of the API into the sign-in page
 * (decision 011). Written from the contract when
 * the build or a test run starts, so it cannot drift from what the server registers.
 */
export function apiRoutes(): Plugin {
  return {
    name: 'atalaya-api-routes',
    resolveId: (id) => (id === API_ROUTES ? RESOLVED : null),
    async load(id) {
      if (id !== RESOLVED) return null;
      const { endpoints } = await import('@atalaya/contract');
      const routes = Object.fromEntries(
        Object.entries(endpoints).map(([area, calls]) => [
          area,
          Object.fromEntries(
            Object.entries(calls).map(([name, e]) => [name, { method: e.method, path: e.path, permission: e.permission }]),
          ),
        ]),
      );
      return `export const routes = ${JSON.stringify(routes)};\n`;
    },
  };
}
