import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../../http/route.ts';
import { dkimKeys, rotateDkim } from './dkim.ts';

/** A mail domain's DKIM keys: /service/{id}/dkim/… */
export default async function dkimRoutes(app: FastifyInstance) {
  const { runtime } = app;
  const { store } = runtime;

  route(app, endpoints.service.dkimList, async (request) => {
    const { access } = request;
    return { data: { keys: await dkimKeys(store, access.mail.item_id, access.reference) } };
  });

  route(app, endpoints.service.dkimRotate, async (request) => {
    const { access } = request;
    const job = await rotateDkim(runtime, access.mail.item_id);
    return {
      data: { keys: await dkimKeys(store, access.mail.item_id, access.reference) },
      info: [{ key: 'service.dkim_rotating' }],
      job,
    };
  });
}
