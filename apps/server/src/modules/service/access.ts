import { AREAS_BY_KIND, type Area, canSee } from '@atalaya/contract';
import type { FastifyRequest } from 'fastify';
import { notFound } from '../../http/errors.ts';
import { pathId } from '../../http/ids.ts';
import { authorize, type ItemAccess } from '../permission/policy.ts';

/** A route id: digits only, else the item does not exist for this caller. */
async function serviceRow(request: FastifyRequest, itemId: number) {
  const service = await request.server.store.selectFrom('service').selectAll().where('item_id', '=', itemId).executeTakeFirst();
  if (!service) throw notFound();
  return service;
}
export type ServiceRow = Awaited<ReturnType<typeof serviceRow>>;

/** The hosting service behind /service/{id}/, checked against one area of the permission map. */
export async function serviceAccess(request: FastifyRequest, id: string, area: Area, level: 'read' | 'write') {
  const itemId = pathId(id);
  const access = await authorize(request, itemId, area, level);
  return { access, service: await serviceRow(request, itemId) };
}

/** The service main view: visible to a user who may see any part of the hosting service. */
export async function serviceAnyAccess(request: FastifyRequest, id: string): Promise<{ access: ItemAccess; service: ServiceRow }> {
  const itemId = pathId(id);
  const access = request.user ? await request.server.authCache.itemAccess(request.user, itemId) : null;
  if (!access || !AREAS_BY_KIND.service.some((area) => canSee(access.permissions, area))) throw notFound();
  return { access, service: await serviceRow(request, itemId) };
}

/** The mail service behind /service/{id}/correo|alias/: the mail area must be visible too. */
export async function mailAccess(request: FastifyRequest, id: string, area: 'servicemail_accounts' | 'servicemail_alias', level: 'read' | 'write') {
  const itemId = pathId(id);
  const access = await authorize(request, itemId, area, level);
  if (!canSee(access.permissions, 'servicemail')) throw notFound();
  const mail = await request.server.store.selectFrom('mail_service').selectAll().where('item_id', '=', itemId).executeTakeFirst();
  if (!mail) throw notFound();
  return { access, mail };
}
