import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { now } from '../../store/db.ts';
import { expiringFor } from './expiring.ts';

const DAY = 86_400;

/** GET /expiring/: the dashboard's "expiring soon" list, within the largest warning offset, of what the user can see. */
export default async function expiryRoutes(app: FastifyInstance) {
  const { store, config } = app.runtime;
  route(app, endpoints.expiry.list, async (request) => {
    const until = now() + Math.max(...config.expiry.warnDays) * DAY;
    return { data: { expiring: await expiringFor(store, request.user!, until) } };
  });
}
