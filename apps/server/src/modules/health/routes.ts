import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { route } from '../../http/route.ts';
import { pendingMigrations } from '../../store/migrations/index.ts';

/**
 * For a load balancer: GET /p247/health answers 200 while the process serves requests (liveness);
 * GET /p247/ready answers 200 only when the store answers and every migration the code knows is
 * applied, else 503 with the reason (take the process out of the pool, do not restart it).
 */
export default async function healthRoutes(app: FastifyInstance) {
  const { store } = app.runtime;
  route(app, endpoints.health.live, async () => ({ data: { status: 'ok' } }));

  route(app, endpoints.health.ready, async (_request, reply) => {
    try {
      await sql`SELECT 1`.execute(store);
      const pending = await pendingMigrations(store);
      if (pending.length > 0) {
        reply.code(503);
        return { data: { status: 'not ready', reason: `migrations not applied: ${pending.join(', ')}` } };
      }
      return { data: { status: 'ready' } };
    } catch (error) {
      app.log.warn({ err: error }, 'readiness check failed');
      reply.code(503);
      return { data: { status: 'not ready', reason: 'the store does not answer' } };
    }
  });
}
