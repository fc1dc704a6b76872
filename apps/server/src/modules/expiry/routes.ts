import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { lifecycleAt } from '../../drivers/registry/lifecycle.ts';
import { route } from '../../http/route.ts';
import { now } from '../../store/db.ts';
import { expiringFor } from './expiring.ts';

const DAY = 86_400;

/** GET /expiring/: the dashboard's "expiring soon" list, within the largest warning offset, of what the user can see. */
export default async function expiryRoutes(app: FastifyInstance) {
  const { store, config } = app.runtime;
  route(app, endpoints.expiry.list, async (request) => {
    const at = now();
    const until = at + Math.max(...config.expiry.warnDays) * DAY;
    const policy = app.runtime.drivers.registry.policy;
    const expiring = (await expiringFor(store, request.user!, until)).map((e) =>
      e.kind === 'domain' ? { ...e, expiry: lifecycleAt(e.expiresAt, at, policy) } : e,
    );
    return { data: { expiring } };
  });
}
