import {
  AREAS_BY_KIND,
  type Area,
  canAct,
  canSee,
  type MailArea,
  type OperatorScope,
  type Permission,
  type ServiceArea,
} from '@atalaya/contract';
import type { FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import { noteItem } from '../../http/actor.ts';
import { ApiError, noPermission, notFound } from '../../http/errors.ts';
import { pathId } from '../../http/ids.ts';
import type { Database } from '../../store/schema.ts';
import type { Operator, SessionUser } from './caller.ts';
import type { ItemAccess } from './policy.ts';

export type { ItemAccess } from './policy.ts';
export type ServiceRow = Selectable<Database['service']>;
export type MailServiceRow = Selectable<Database['mail_service']>;

/** An operator call: the billing system's token, its scope already checked. */
export interface OperatorAccess {
  operator: Operator;
}
/** A call that needs only a session: who is calling (with a token, what the token may do). */
export interface Caller {
  user: SessionUser;
}
/** An item call on areas of the hosting service: the access and the service's row. */
export interface ServiceAccess extends ItemAccess {
  service: ServiceRow;
}
/** An item call on areas of the mail service: the access and the mail service's row. */
export interface MailAccess extends ItemAccess {
  mail: MailServiceRow;
}

type AreasOf<W> = W extends { area: infer A } ? A : W extends { anyOf: readonly (infer A)[] } ? A : never;

/**
 * What `route()` hands a handler for the permission its entry declares: nothing for a public call,
 * the caller for a session call, and for an item call the checked access with the row its areas
 * belong to (the hosting service, the mail service; a domain's registry view is its area's loader).
 */
export type AccessOf<W extends Permission> = W extends { public: unknown }
  ? undefined
  : W extends { operator: unknown }
    ? OperatorAccess
    : W extends { session: true }
      ? Caller
      : [AreasOf<W>] extends [MailArea]
        ? MailAccess
        : [AreasOf<W>] extends [ServiceArea]
          ? ServiceAccess
          : ItemAccess;

/** A request whose route has checked an item call: what the areas' loaders start from. */
export type ItemRequest<A extends ItemAccess = ItemAccess> = FastifyRequest & { access: A };

const allIn = (areas: readonly Area[], kind: readonly Area[]) => areas.every((area) => kind.includes(area));

/**
 * The one authorisation of a call, from its entry in the endpoint table: the path's item checked
 * against the caller's permission map (a token's cut down to its scope), 404 when the item or every
 * declared area is hidden, 403 when write is needed and not held, and the item's row loaded once.
 */
export async function accessFor(request: FastifyRequest, permission: Permission): Promise<unknown> {
  if ('public' in permission) return undefined;
  if ('operator' in permission) return operatorAccess(request, permission.operator);
  const user = request.user;
  if (!user) throw notFound();
  if ('session' in permission) return { user } satisfies Caller;
  const rawId = (request.params as { id?: string }).id ?? '';
  const access = await request.server.authCache.itemAccess(user, pathId(rawId));
  const areas = 'area' in permission ? [permission.area] : permission.anyOf;
  const visible = access ? areas.filter((area) => canSee(access.permissions, area)) : [];
  if (!access || visible.length === 0) throw notFound();
  if ('tokenArea' in permission && permission.tokenArea && user.token && !canSee(access.permissions, permission.tokenArea))
    throw notFound();
  if (permission.level === 'write' && !visible.some((area) => canAct(access.permissions, area))) throw noPermission();
  // The activity log files the call under this item and area (decision 023); an `anyOf` call's
  // loader files it again under the one area it touched.
  noteItem(request, { id: access.itemId, reference: access.reference }, 'area' in permission ? permission.area : visible[0]);
  const loaded = await rowOf(request, access, areas, 'normalOnly' in permission && Boolean(permission.normalOnly));
  const alsoWrite = 'alsoWrite' in permission ? (permission.alsoWrite ?? []) : [];
  for (const other of alsoWrite) if (!canAct(access.permissions, other)) throw noPermission();
  return loaded;
}

/** An operator call: the guard authenticated the token; its scopes must hold the entry's. */
function operatorAccess(request: FastifyRequest, scope: OperatorScope): OperatorAccess {
  const operator = request.operator;
  if (!operator) throw new ApiError(401, 'operator.token_required');
  if (!operator.scopes.includes(scope)) throw new ApiError(403, 'operator.scope', { scope });
  return { operator };
}

/** The row an item call's areas belong to: a mail call needs the mail area visible and the mail service, a hosting call the service. */
async function rowOf(request: FastifyRequest, access: ItemAccess, areas: readonly Area[], normalOnly: boolean) {
  const { store } = request.server.runtime;
  if (allIn(areas, AREAS_BY_KIND.mail)) {
    if (!canSee(access.permissions, 'servicemail')) throw notFound();
    const mail = await store.selectFrom('mail_service').selectAll().where('item_id', '=', access.itemId).executeTakeFirst();
    if (!mail) throw notFound();
    return { ...access, mail } satisfies MailAccess;
  }
  if (allIn(areas, AREAS_BY_KIND.service)) {
    const service = await store.selectFrom('service').selectAll().where('item_id', '=', access.itemId).executeTakeFirst();
    if (!service || (normalOnly && service.kind === 'parking')) throw notFound();
    return { ...access, service } satisfies ServiceAccess;
  }
  return access;
}

/**
 * Narrows an `anyOf` call to the one area it touches, known only once its loader has read the
 * item (a toggle's name, a job's kind): 404 when that area is hidden, 403 without write.
 */
export function narrowTo(request: ItemRequest, areas: readonly Area[], level: 'read' | 'write') {
  const { permissions, itemId, reference } = request.access;
  const visible = areas.filter((area) => canSee(permissions, area));
  if (visible.length === 0) throw notFound();
  const acting = visible.find((area) => canAct(permissions, area));
  if (level === 'write' && !acting) throw noPermission();
  noteItem(request, { id: itemId, reference }, acting ?? visible[0]);
}
