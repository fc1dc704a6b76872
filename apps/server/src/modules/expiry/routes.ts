import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { now } from '../../store/db.ts';
import { expiringFor, withRegistryState } from './expiring.ts';

const DAY = 86_400;

/** GET /expiring/: the dashboard's "expiring soon" list, within the largest warning offset, of what the user can see. */
export default async function expiryRoutes(app: FastifyInstance) {
  const { store, config, drivers } = app.runtime;
  route(app, endpoints.expiry.list, async (request) => {
    const at = now();
    const until = at + Math.max(...config.expiry.warnDays) * DAY;
    const expiring = withRegistryState(await expiringFor(store, request.user!, until), at, drivers.registry.policy);
    return { data: { expiring } };
  });
}
