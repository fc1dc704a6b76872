import {
  AREAS,
  AREAS_BY_KIND,
  type Area,
  canSee,
  type Level,
  type PermissionItem,
  type PermissionMap,
  type PermissionSet,
} from '@atalaya/contract';
import type { Store } from '../../store/db.ts';
import type { SessionUser } from '../permission/caller.ts';
import type { ItemAccess } from '../permission/policy.ts';
import { visibleRows } from '../permission/visible.ts';

const seesKind = (map: PermissionMap, kind: keyof typeof AREAS_BY_KIND) => AREAS_BY_KIND[kind].some((a) => canSee(map, a));
// Expiry dates are shown only for the kinds the user may see, like everything else about an item.
const expiry = (at: number | null, visible: boolean) => (visible && at !== null ? at : null);

/** The breadcrumb and menu data of one item the user may see (access comes from loadItemAccess). */
export async function permissionSet(store: Store, access: ItemAccess): Promise<PermissionSet> {
  const row = await store
    .selectFrom('item')
    .leftJoin('domain', 'domain.item_id', 'item.id')
    .leftJoin('service', 'service.item_id', 'item.id')
    .leftJoin('mail_service', 'mail_service.item_id', 'item.id')
    .select(['item.suspended', 'domain.expire_at as d', 'service.expire_at as s', 'service.kind', 'mail_service.expire_at as m'])
    .where('item.id', '=', access.itemId)
    .executeTakeFirstOrThrow();
  const map = access.permissions;
  const has = {
    domain: row.d !== null && seesKind(map, 'domain'),
    service: row.s !== null && seesKind(map, 'service'),
    mail: row.m !== null && seesKind(map, 'mail'),
  };
  const permissions = Object.fromEntries(AREAS.map((a) => [a, map[a] ?? 'disabled'])) as Record<Area, Level>;
  return {
    id: access.itemId,
    reference: access.reference,
    suspended: row.suspended === 1,
    permissions,
    hasDomain: has.domain,
    hasService: has.service,
    hasMail: has.mail,
    domain: { expireTS: expiry(row.d, has.domain) },
    service: { isRedirAndParking: has.service && row.kind === 'parking', expireTS: expiry(row.s, has.service) },
    mail: { expireTS: expiry(row.m, has.mail) },
  };
}

/**
 * Every item of the realm with at least one visible permission, in one grouped query (a realm may
 * hold 10,000 domains), sorted by reference.
 */
export async function permissionList(store: Store, user: SessionUser): Promise<PermissionItem[]> {
  // Grouping the visible rows first follows the permission key (user_id, item_id, area) in order.
  const seen = visibleRows(store, user)
    .select((eb) => {
      // 1 when the caller sees at least one area of that kind on the item.
      const seesAny = (areas: readonly Area[]) =>
        eb.fn.max(
          eb
            .case()
            .when('p.area', 'in', [...areas])
            .then(1)
            .else(0)
            .end(),
        );
      return [
        'p.item_id',
        seesAny(AREAS_BY_KIND.domain).as('see_d'),
        seesAny(AREAS_BY_KIND.service).as('see_s'),
        seesAny(AREAS_BY_KIND.mail).as('see_m'),
      ];
    })
    .groupBy('p.item_id')
    .as('p');
  const rows = await store
    .selectFrom(seen)
    .innerJoin('item', 'item.id', 'p.item_id')
    .leftJoin('domain', 'domain.item_id', 'item.id')
    .leftJoin('service', 'service.item_id', 'item.id')
    .leftJoin('mail_service', 'mail_service.item_id', 'item.id')
    .select([
      'item.id',
      'item.reference',
      'domain.expire_at as d',
      'service.expire_at as s',
      'service.kind',
      'mail_service.expire_at as m',
      'p.see_d',
      'p.see_s',
      'p.see_m',
    ])
    .where('item.realm_id', '=', user.realmId)
    .orderBy('item.reference')
    .execute();
  return rows.map((r) => {
    const has = {
      domain: r.d !== null && Number(r.see_d) === 1,
      service: r.s !== null && Number(r.see_s) === 1,
      mail: r.m !== null && Number(r.see_m) === 1,
    };
    return {
      id: r.id,
      reference: r.reference,
      hasDomain: has.domain,
      hasService: has.service,
      hasMail: has.mail,
      isRedirAndParking: has.service && r.kind === 'parking',
      domainExpireTS: expiry(r.d, has.domain),
      serviceExpireTS: expiry(r.s, has.service),
      mailExpireTS: expiry(r.m, has.mail),
    };
  });
}
