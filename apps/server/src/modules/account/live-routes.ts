import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { createNoticeHub } from './live.ts';

/**
 * GET /p247/ws: the menu-refresh socket. Browsers cannot add the CSRF header to an upgrade, so the
 * guard exempts it from that header; it still needs the session cookie, and an Origin of this site
 * (the guard refuses a foreign one; here a missing one, which no browser omits).
 */
export default async function liveRoutes(app: FastifyInstance) {
  const hub = createNoticeHub(app.store, app.config, (err) => app.log.error({ err }, 'notice poll failed'));
  app.addHook('onClose', async () => hub.close());

  app.get(
    '/ws',
    {
      websocket: true,
      config: { websocket: true },
      schema: { hide: true },
      onRequest: async (request) => {
        if (!request.headers.origin) throw new ApiError(403, 'main.cross_site');
      },
    },
    async (socket, request) => {
      const user = request.user!;
      await hub.add({ userId: user.id, sessionId: user.sessionId, socket });
      // From here on every change reaches this socket; clients ignore types they do not know.
      socket.send(JSON.stringify({ type: 'ready' }));
    },
  );
}
