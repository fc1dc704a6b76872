import { type Area, canAct } from '@atalaya/contract';
import type { FastifyRequest } from 'fastify';
import { noPermission, notFound } from '../../http/errors.ts';
import { pathId } from '../../http/ids.ts';
import { authorize, type ItemAccess } from '../permission/policy.ts';

export interface HostingService {
  id: number;
  reference: string;
  kind: 'normal' | 'parking';
  phpVersion: string;
  parkingActive: boolean;
}

export async function loadService(request: FastifyRequest, itemId: number): Promise<HostingService> {
  const row = await request.server.store
    .selectFrom('service')
    .innerJoin('item', 'item.id', 'service.item_id')
    .select(['item.id', 'item.reference', 'service.kind', 'service.php_version', 'service.parking_active'])
    .where('service.item_id', '=', itemId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return { id: row.id, reference: row.reference, kind: row.kind, phpVersion: row.php_version, parkingActive: row.parking_active === 1 };
}

export interface ServiceContext {
  access: ItemAccess;
  service: HostingService;
}

/**
 * Authorises the call on the service and loads it. Sites and the installer do not exist on a
 * redirect-and-parking service (the menu hides them), so their calls answer 404 there, as for
 * any page the user cannot reach; redirections exist on both kinds.
 */
export async function serviceFor(
  request: FastifyRequest,
  rawId: string,
  area: Area,
  level: 'read' | 'write',
  options: { normalOnly?: boolean; alsoWrite?: Area[] } = {},
): Promise<ServiceContext> {
  const access = await authorize(request, pathId(rawId), area, level);
  const service = await loadService(request, access.itemId);
  if (options.normalOnly && service.kind === 'parking') throw notFound();
  for (const other of options.alsoWrite ?? []) if (!canAct(access.permissions, other)) throw noPermission();
  return { access, service };
}
