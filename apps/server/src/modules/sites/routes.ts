import type { FastifyInstance } from 'fastify';
import { installerRoutes } from './installer/routes.ts';
import { createSitesContext } from './jobs.ts';
import { redirectionRoutes } from './redirections.ts';
import { subdomainRoutes } from './subdomains.ts';

/** The sites (subdomains with SSL), redirections and application installer calls under /p247/. */
export default async function sitesRoutes(app: FastifyInstance) {
  createSitesContext(app);
  subdomainRoutes(app);
  redirectionRoutes(app);
  installerRoutes(app);
}
