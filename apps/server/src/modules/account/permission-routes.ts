import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../http/errors.ts';
import { permissionList, permissionSet } from './permissions.ts';

// Any id text is accepted here so that a malformed id answers 404 like a foreign one, revealing nothing.
const params = z.object({ id: z.string().max(20) });

/** POST /permission/{id}/ and GET /permission/list/. */
export default async function permissionRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post('/permission/:id/', { schema: { params } }, async (request) => {
    const id = /^\d{1,15}$/.test(request.params.id) ? Number(request.params.id) : 0;
    const access = await app.authCache.itemAccess(request.user!, id);
    if (!access) throw notFound();
    return { data: await permissionSet(app.store, access) };
  });

  api.get('/permission/list/', async (request) => ({ data: await permissionList(app.store, request.user!) }));
}
