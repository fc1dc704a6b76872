import type { FastifyInstance } from 'fastify';

/** The domain calls under /p247/. */
export default async function domainRoutes(_app: FastifyInstance) {}
