import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router';

const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

/**
 * Children of the service wrapper (spec §2): the main view, ftp/, ddbb/ and the sites' subdomain/,
 * which share the wrapper's loaded service and permissions.
 */
// Fetched only when a parking service's main view shows it.
const ParkingRedirections = lazy(() => import('../sites/ParkingRedirections.tsx'));

export const serviceChildren: RouteObject[] = [
  {
    index: true,
    lazy: async () => {
      const { default: ServicePage } = await import('./ServicePage.tsx');
      const parkingExtra = (
        <Suspense fallback={null}>
          <ParkingRedirections />
        </Suspense>
      );
      return { Component: () => <ServicePage parkingExtra={parkingExtra} /> };
    },
  },
  { path: 'ftp/', lazy: page(() => import('./FtpPage.tsx')) },
  { path: 'ddbb/', lazy: page(() => import('./DatabasesPage.tsx')) },
  { path: 'subdomain/', lazy: page(() => import('../sites/SitesPage.tsx')) },
];

/** Children of /admin/:id/service/ (dns/ comes from features/dns, mounted by the router). */
export const serviceRoutes: RouteObject[] = [
  {
    lazy: async () => ({ Component: (await import('./ServiceWrapper.tsx')).ServiceWrapper }),
    children: serviceChildren,
  },
];
