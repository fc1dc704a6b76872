import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../http/errors.ts';
import { pathId } from '../../http/ids.ts';
import { route } from '../../http/route.ts';
import { callerKey } from '../session/auth-cache.ts';
import { permissionList, permissionSet } from './permissions.ts';

/** POST /permission/{id}/ and GET /permission/list/. */
export default async function permissionRoutes(app: FastifyInstance) {
  const { store } = app.runtime;
  route(app, endpoints.account.permission, async (request) => {
    const access = await app.authCache.itemAccess(request.user!, pathId(request.params.id));
    if (!access) throw notFound();
    return { data: await permissionSet(store, access) };
  });

  route(app, endpoints.account.permissionList, async (request) => {
    const user = request.user!;
    // Kept per user and per token: a token's list is cut down to its scope and items.
    return { data: await app.authCache.remember(`list:${callerKey(user)}`, () => permissionList(store, user)) };
  });
}
