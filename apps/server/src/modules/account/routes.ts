import type { FastifyInstance } from 'fastify';

/** The account calls under /p247/. */
export default async function accountRoutes(_app: FastifyInstance) {}
