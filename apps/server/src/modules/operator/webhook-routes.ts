import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../http/errors.ts';
import { pathId } from '../../http/ids.ts';
import { route } from '../../http/route.ts';
import { createWebhook, deleteWebhook, listWebhooks } from './webhooks.ts';

/** The operator's webhook endpoints: list, register (the signing secret shown once) and remove. */
export default async function webhookRoutes(app: FastifyInstance) {
  const { store, secrets } = app.runtime;

  route(app, endpoints.operator.webhookList, async () => ({ data: { webhooks: await listWebhooks(store) } }));

  route(app, endpoints.operator.webhookCreate, async (request) => ({ data: await createWebhook(store, secrets, request.body) }));

  route(app, endpoints.operator.webhookDelete, async (request) => {
    if (!(await deleteWebhook(store, pathId(request.params.webhookId)))) throw notFound();
    return { data: { done: true as const } };
  });
}
