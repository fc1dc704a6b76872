import type { FastifyInstance } from 'fastify';

/** The dns calls under /p247/. */
export default async function dnsRoutes(_app: FastifyInstance) {}
