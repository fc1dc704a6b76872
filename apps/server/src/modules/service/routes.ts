import type { FastifyInstance } from 'fastify';

/** The service calls under /p247/. */
export default async function serviceRoutes(_app: FastifyInstance) {}
