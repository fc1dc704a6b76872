import { endpoints } from '@atalaya/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { ApiError } from '../../http/errors.ts';
import { routeOptions } from '../../http/route.ts';
import { createNoticeHub } from './live.ts';

/**
 * The menu-refresh socket (endpoints.account.live). Browsers cannot add the CSRF header to an upgrade, so the
 * guard exempts it from that header; it still needs the session cookie, and an Origin of this site
 * (the guard refuses a foreign one; here a missing one, which no browser omits).
 */
export default async function liveRoutes(app: FastifyInstance) {
  const { store, config } = app.runtime;
  const hub = createNoticeHub(store, config, (err) => app.log.error({ err }, 'notice poll failed'), 1000, app.runtime.signals);
  app.addHook('onClose', async () => hub.close());

  app.route({
    ...routeOptions(endpoints.account.live),
    websocket: true,
    onRequest: async (request) => {
      if (!request.headers.origin) throw new ApiError(403, 'main.cross_site');
    },
    handler: (async (socket: WebSocket, request: FastifyRequest) => {
      const user = request.user!;
      await hub.add({ userId: user.id, sessionId: user.sessionId, socket });
      // From here on every change reaches this socket; clients ignore types they do not know.
      socket.send(JSON.stringify({ type: 'ready' }));
    }) as never,
  });
}
