/** Written at build time from the contract's endpoint table (apiRoutes.ts); typed by lib/endpoints.ts. */
declare module 'virtual:atalaya/api-routes' {
  export const routes: Record<string, Record<string, { method: 'GET' | 'POST'; path: string; permission: unknown }>>;
}
