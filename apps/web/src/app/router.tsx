import { AREAS_BY_KIND, SCREEN_AREA } from '@atalaya/contract';
import type { ComponentType } from 'react';
import DashboardPage from '../features/dashboard/DashboardPage.tsx';
import LoginPage from '../features/session/LoginPage.tsx';
import { addServerTexts, addTexts } from '../lib/i18n.ts';
import { Navigate } from '../lib/router/links.tsx';
import type { Route } from '../lib/router/match.ts';
import { useUser } from '../lib/session.ts';
import { serviceRoutes } from './serviceRoutes.tsx';
import { RequireAreas } from './shell/RequireAreas.tsx';
import { RouteError } from './shell/RouteError.tsx';
import ShellLayout from './shell/ShellLayout.tsx';

/** A route whose screen is its own chunk: only the sign-in route's code loads at /login/. */
const screen = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });

/**
 * The signed-in frame and the dashboard are in the panel's chunk with the router (chunks.ts): no
 * file of their own to fetch. Still given as `lazy`, so the router starts and renders as it does
 * for the other screens; as static `Component`s the first render was one long task (decision 011).
 */
const inPanel = (Component: ComponentType) => async () => ({ Component });

const list = (kind: 'domain' | 'service' | 'mail') => async () => {
  const { ListPage } = await import('../features/lists/ListPage.tsx');
  return { Component: () => <ListPage kind={kind} /> };
};

/**
 * The item frame, with the screens' texts (locales/index.ts) and the areas' server
 * messages (locales/areas.ts): every screen that uses them (domain, hosting, mail, sites, DNS) is an
 * item page, so the dashboard and the lists do not wait for them (docs/design.md#budgets). The
 * router loads a route's `lazy` before it renders any child.
 */
const itemLayout = async () => {
  const [layout, texts, areas] = await Promise.all([
    import('./shell/ItemLayout.tsx'),
    import('../locales/index.ts'),
    import('../locales/areas.ts'),
  ]);
  addTexts(texts.FEATURE_TEXTS);
  addServerTexts(areas.AREA_TEXTS);
  return { Component: layout.default };
};

/** Preferences, with the texts of its API tokens and second factors sections (only that page, and the sign-in's second step, use them). */
const preferences = async () => {
  const [page, texts, factorTexts] = await Promise.all([
    import('../features/preferences/PreferencesPage.tsx'),
    import('../locales/tokens.ts'),
    import('../locales/secondStep.ts'),
  ]);
  addTexts([texts.tokens, ...factorTexts.SECOND_STEP_TEXTS]);
  return { Component: page.default };
};

/** The Activity page with its own texts (locales/activity.ts), which nothing else needs, and the areas' messages (the server's activity names). */
const activityPage = async () => {
  const [page, texts, areas] = await Promise.all([
    import('../features/activity/ActivityPage.tsx'),
    import('../locales/activity.ts'),
    import('../locales/areas.ts'),
  ]);
  addTexts([texts.activity]);
  addServerTexts(areas.AREA_TEXTS);
  return { Component: page.default };
};

/**
 * Children of /admin/:id/: each area page shows the 404 view when the item lacks its kind or none of
 * its areas is visible; a page whose main load fails ends in RouteError, inside the item's frame.
 */
const itemRoutes: Route[] = [
  { index: true, lazy: screen(() => import('./shell/MainView.tsx')), ErrorBoundary: RouteError },
  {
    path: 'domain/',
    element: <RequireAreas areas={AREAS_BY_KIND.domain} kind="domain" />,
    ErrorBoundary: RouteError,
    children: [{ index: true, lazy: screen(() => import('../features/domain/DomainPage.tsx')) }],
  },
  {
    path: 'mail/',
    element: <RequireAreas areas={AREAS_BY_KIND.mail} kind="mail" />,
    ErrorBoundary: RouteError,
    children: [{ index: true, lazy: screen(() => import('../features/mail/MailPage.tsx')) }],
  },
  {
    path: 'service/',
    element: <RequireAreas areas={AREAS_BY_KIND.service} kind="service" />,
    ErrorBoundary: RouteError,
    children: [
      ...serviceRoutes,
      {
        path: 'dns/',
        element: <RequireAreas areas={[SCREEN_AREA.dnsZone]} />,
        ErrorBoundary: RouteError,
        children: [{ index: true, lazy: screen(() => import('../features/dns/DnsPage.tsx')) }],
      },
    ],
  },
];

/** The sign-in page is in the start-up chunk already (main.tsx); a signed-in visitor goes to the dashboard. */
function LoginRoute() {
  return useUser() ? <Navigate to="/admin/" replace /> : <LoginPage />;
}

export const routes: Route[] = [
  { path: '/', element: <Navigate to="/admin/" replace /> },
  { path: '/login/', Component: LoginRoute },
  {
    // The signed-in frame (guard, header, menus, breadcrumb, footer).
    lazy: inPanel(ShellLayout),
    children: [
      { path: '/admin/', lazy: inPanel(DashboardPage) },
      { path: '/admin/activity/', lazy: activityPage },
      { path: '/admin/contact/', lazy: screen(() => import('../features/contact/ContactPage.tsx')) },
      { path: '/admin/domain/', lazy: list('domain') },
      { path: '/admin/service/', lazy: list('service') },
      { path: '/admin/mail/', lazy: list('mail') },
      { path: '/admin/preferences/', lazy: preferences },
      { path: '/legal/', lazy: screen(() => import('../features/legal/LegalPage.tsx')) },
      { path: '/admin/:id/', lazy: itemLayout, children: itemRoutes },
    ],
  },
  { path: '*', lazy: screen(() => import('./shell/NotFoundPage.tsx')) },
];
