import type { FastifyInstance } from 'fastify';
import domainRoutes from './domain-routes.ts';
import provisionRoutes from './provision-routes.ts';
import webhookRoutes from './webhook-routes.ts';

/** The operator API for billing systems (decision 037): only operator tokens reach it. */
export default async function operatorRoutes(app: FastifyInstance) {
  await app.register(provisionRoutes);
  await app.register(domainRoutes);
  await app.register(webhookRoutes);
}
