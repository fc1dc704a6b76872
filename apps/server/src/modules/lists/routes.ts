import { endpoints, type ListKind } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { itemPage, listKinds } from './query.ts';

/** GET /list/domain/, /list/service/, /list/mail/ (one page each) and /list/kinds/ (the side menu). */
export default async function listRoutes(app: FastifyInstance) {
  for (const kind of ['domain', 'service', 'mail'] as const satisfies ListKind[]) {
    route(app, endpoints.lists[kind], async (request) => ({ data: await itemPage(app.store, request.user!, kind, request.query) }));
  }
  route(app, endpoints.lists.kinds, async (request) => ({ data: await listKinds(app.store, request.user!) }));
}
