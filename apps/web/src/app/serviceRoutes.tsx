import { SCREEN_AREA } from '@atalaya/contract';
import { lazy, Suspense } from 'react';
import type { Route } from '../lib/router/match.ts';
import { RequireAreas } from './shell/RequireAreas.tsx';

const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

/**
 * Children of the service wrapper (docs/behaviour/service-area-dns.md#screens): the main view, ftp/, ddbb/, backups/ and the sites' subdomain/,
 * which share the wrapper's loaded service and permissions. Composed here, in app/, because they
 * join two features (service and sites) that never import each other.
 */
// Fetched only when a parking service's main view shows it.
const ParkingRedirections = lazy(() => import('../features/sites/ParkingRedirections.tsx'));

export const serviceChildren: Route[] = [
  {
    index: true,
    lazy: async () => {
      const { default: ServicePage } = await import('../features/service/ServicePage.tsx');
      const parkingExtra = (
        <Suspense fallback={null}>
          <ParkingRedirections />
        </Suspense>
      );
      return { Component: () => <ServicePage parkingExtra={parkingExtra} /> };
    },
  },
  {
    path: 'ftp/',
    element: <RequireAreas areas={[SCREEN_AREA.ftp]} />,
    children: [{ index: true, lazy: page(() => import('../features/service/FtpPage.tsx')) }],
  },
  {
    path: 'ddbb/',
    element: <RequireAreas areas={[SCREEN_AREA.databases]} />,
    children: [{ index: true, lazy: page(() => import('../features/service/DatabasesPage.tsx')) }],
  },
  {
    path: 'backups/',
    element: <RequireAreas areas={[SCREEN_AREA.backups]} />,
    children: [{ index: true, lazy: page(() => import('../features/backups/BackupsPage.tsx')) }],
  },
  {
    path: 'subdomain/',
    element: <RequireAreas areas={[SCREEN_AREA.sites]} kind="sites" />,
    children: [{ index: true, lazy: page(() => import('../features/sites/SitesPage.tsx')) }],
  },
];

/** Children of /admin/:id/service/ (dns/ comes from features/dns, mounted by the router). */
export const serviceRoutes: Route[] = [
  {
    lazy: async () => ({ Component: (await import('../features/service/ServiceWrapper.tsx')).ServiceWrapper }),
    children: serviceChildren,
  },
];
