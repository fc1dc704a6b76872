import type { FastifyInstance } from 'fastify';
import acmeRoutes from './acme/routes.ts';
import installerRoutes from './installer/routes.ts';
import redirectionRoutes from './redirection-routes.ts';
import subdomainRoutes from './subdomain-routes.ts';

/** The sites (subdomains with SSL), redirections and application installer calls under /p247/. */
export default async function sitesRoutes(app: FastifyInstance) {
  await app.register(subdomainRoutes);
  await app.register(redirectionRoutes);
  await app.register(installerRoutes);
  await app.register(acmeRoutes);
}
