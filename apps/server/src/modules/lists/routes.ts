import { endpoints, LIST_KINDS } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { itemPage, listKinds } from './query.ts';

/** GET /list/domain/, /list/service/, /list/mail/ (one page each) and /list/kinds/ (the side menu). */
export default async function listRoutes(app: FastifyInstance) {
  const { store } = app.runtime;
  for (const kind of LIST_KINDS) {
    route(app, endpoints.lists[kind], async (request) => ({
      data: await itemPage(store, request.user!, kind, request.query, app.runtime.drivers.registry.policy),
    }));
  }
  route(app, endpoints.lists.kinds, async (request) => ({ data: await listKinds(store, request.user!) }));
}
