import { type Area, canAct } from '@atalaya/contract';
import type { FastifyRequest } from 'fastify';
import { noPermission, notFound } from '../../http/errors.ts';
import { authorize, type ItemAccess } from '../permission/policy.ts';

export interface HostingService {
  id: number;
  reference: string;
  kind: 'normal' | 'parking';
  phpVersion: string;
  parkingActive: boolean;
}

/** A route's numeric id: anything else is an unknown id, so 404 like a foreign one. */
export function toId(raw: string): number {
  const id = Number(raw);
  if (!/^\d{1,10}$/.test(raw) || !Number.isSafeInteger(id) || id <= 0 || id > 2 ** 31 - 1) throw notFound();
  return id;
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
  const access = await authorize(request, toId(rawId), area, level);
  const service = await loadService(request, access.itemId);
  if (options.normalOnly && service.kind === 'parking') throw notFound();
  for (const other of options.alsoWrite ?? []) if (!canAct(access.permissions, other)) throw noPermission();
  return { access, service };
}
