/**
 * The entry: nothing but the choice of what to fetch, so that on every page but the sign-in one
 * the panel's chunk (router, shell) downloads alongside the start-up chunk instead of after it.
 * The start-up chunk is listed in index.html (chunks.ts), so /login/ pays no extra round trip.
 */
const onLoginPage = /^\/login\/?$/.test(location.pathname);
const loadPanel = () => import('./app/App.tsx');
const panel = onLoginPage ? null : loadPanel();
const { start } = await import('./start.tsx');
await start(onLoginPage, panel, loadPanel);

export {};
