import { AREAS_BY_KIND, type Area, canAct, canSee } from '@atalaya/contract';
import type { FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import { noteItem } from '../../http/actor.ts';
import { noPermission, notFound } from '../../http/errors.ts';
import { pathId } from '../../http/ids.ts';
import type { Database } from '../../store/schema.ts';
import { authorize, type ItemAccess } from './policy.ts';

/**
 * The one way into an item from a route: the path id checked against the caller's permission map
 * for one area and level (404 when the item or the area is not visible, 403 without write). Each
 * area's own opener (a domain, a zone, a mail service) starts here.
 */
export async function openItem(request: FastifyRequest, rawId: string, area: Area, level: 'read' | 'write'): Promise<ItemAccess> {
  assertDeclared(request, area, level);
  const access = await authorize(request, pathId(rawId), area, level);
  // The activity log files the call under this item and area (decision 023).
  noteItem(request, { id: access.itemId, reference: access.reference }, area);
  return access;
}

/**
 * The endpoint table declares the area and level each call needs (the API's documentation and the
 * web's guard read it there); a handler that opens its item with another one is a programming
 * error, caught by the first test that reaches it, so what is documented is what is checked.
 */
function assertDeclared(request: FastifyRequest, area: Area | 'any', level: 'read' | 'write') {
  const declared = request.routeOptions.config.permission;
  if (!declared) return;
  const matches =
    'area' in declared
      ? declared.area === area && declared.level === level
      : 'anyOf' in declared
        ? declared.level === level && (area === 'any' || declared.anyOf.includes(area))
        : false;
  if (!matches) throw new Error(`${request.routeOptions.url}: opened for ${area}/${level}, declared ${JSON.stringify(declared)}`);
}

export type ServiceRow = Selectable<Database['service']>;

export interface OpenService {
  access: ItemAccess;
  service: ServiceRow;
}

interface ServiceOptions {
  /** Sites and the installer do not exist on a redirect-and-parking service: their calls answer 404 there. */
  normalOnly?: boolean;
  /** Areas the call also needs write on (403 otherwise). */
  alsoWrite?: Area[];
}

/**
 * The hosting service behind /service/{id}/…, authorised on one area, or on `any` area of the
 * service kind (its main view), and its row loaded once.
 */
export async function openService(
  request: FastifyRequest,
  rawId: string,
  area: Area | 'any',
  level: 'read' | 'write',
  options: ServiceOptions = {},
): Promise<OpenService> {
  if (area === 'any') assertDeclared(request, area, level);
  const access = area === 'any' ? await anyServiceArea(request, rawId) : await openItem(request, rawId, area, level);
  const service = await request.server.store.selectFrom('service').selectAll().where('item_id', '=', access.itemId).executeTakeFirst();
  if (!service || (options.normalOnly && service.kind === 'parking')) throw notFound();
  const declared = request.routeOptions.config.permission;
  const alsoWrite = declared && 'alsoWrite' in declared ? (declared.alsoWrite ?? []) : [];
  if (JSON.stringify(options.alsoWrite ?? []) !== JSON.stringify(alsoWrite))
    throw new Error(`${request.routeOptions.url}: alsoWrite differs from the table's`);
  for (const other of options.alsoWrite ?? []) if (!canAct(access.permissions, other)) throw noPermission();
  return { access, service };
}

/**
 * Visible to a user who may see any part of the hosting service. A token needs the `service` area
 * itself: the view shows that area's data (usage, PHP, parking), which a scope of, say, the DNS
 * zone alone does not cover; the web's shell, which needs the view for any area, uses a session.
 */
async function anyServiceArea(request: FastifyRequest, rawId: string): Promise<ItemAccess> {
  const access = request.user ? await request.server.authCache.itemAccess(request.user, pathId(rawId)) : null;
  const areas = request.user?.token ? (['service'] as const) : AREAS_BY_KIND.service;
  if (!access || !areas.some((area) => canSee(access.permissions, area))) throw notFound();
  noteItem(request, { id: access.itemId, reference: access.reference }, 'service');
  return access;
}
