import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../http/errors.ts';
import { permissionList, permissionSet } from './permissions.ts';
import { pathId } from '../../http/ids.ts';

// Any id text is accepted here so that a malformed id answers 404 like a foreign one, revealing nothing.
const params = z.object({ id: z.string().max(20) });

/** POST /permission/{id}/ and GET /permission/list/. */
export default async function permissionRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post('/permission/:id/', { schema: { params } }, async (request) => {
    const access = await app.authCache.itemAccess(request.user!, pathId(request.params.id));
    if (!access) throw notFound();
    return { data: await permissionSet(app.store, access) };
  });

  api.get('/permission/list/', async (request) => ({ data: await permissionList(app.store, request.user!) }));
}
