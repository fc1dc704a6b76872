import { sendStartupCalls } from './lib/startupCalls.ts';

/**
 * The entry: nothing but the choice of what to fetch, so that nothing waits for the start-up
 * chunk to arrive: the start-up calls (config, user info, which lists the user has and, on the
 * dashboard, what expires soon) leave at once, and on every page but the sign-in one the panel's
 * chunk (router, frame, dashboard) downloads alongside the start-up chunk.
 * The start-up chunk is listed in index.html (chunks.ts), so /login/ pays no extra round trip.
 */
const onLoginPage = /^\/login\/?$/.test(location.pathname);
const onDashboard = /^\/admin\/?$/.test(location.pathname);
const calls = sendStartupCalls(onLoginPage, onDashboard);
const loadPanel = () => import('./app/App.tsx');
const panel = onLoginPage ? null : loadPanel();
// The first Intl.DateTimeFormat a page makes loads the browser's date data, a long task on a
// phone, and the first render of any page with a date (the
// dashboard's last sign-in and expiry dates, the lists) would pay it in one block. Paid here
// instead, in a task of its own while the chunks are still downloading; lib/format.ts's formatters
// then cost next to nothing. Not on the sign-in page, which shows no date.
if (!onLoginPage) setTimeout(() => new Intl.DateTimeFormat(calls.texts.language, { dateStyle: 'medium' }).format(0));
const { start } = await import('./start.tsx');
await start(onLoginPage, panel, loadPanel, calls);
