import type { RouteObject } from 'react-router';

/** Children of /admin/:id/service/ (home, ftp/, subdomain/, ddbb/; dns/ comes from features/dns). */
export const serviceRoutes: RouteObject[] = [];
