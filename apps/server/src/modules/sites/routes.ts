import type { FastifyInstance } from 'fastify';

/** The sites (subdomains with SSL), redirections and application installer calls under /p247/. */
export default async function sitesRoutes(_app: FastifyInstance) {}
