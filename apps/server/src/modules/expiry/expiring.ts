import { X509Certificate } from 'node:crypto';
import { type Area, canSee, type Expiring, type ExpiringKind, type PermissionMap } from '@atalaya/contract';
import type { Store } from '../../store/db.ts';
import type { SessionUser } from '../session/sessions.ts';
import { tokenAreas, tokenItems } from '../token/tokens.ts';

/** The permission area that makes each kind visible (read) or actionable (write). */
export const AREA_OF: Record<ExpiringKind, Area> = { certificate: 'service_subdomains', domain: 'domain', service: 'service' };

/** One thing that expires, with the row id that names it in `expiry_warning`. */
export interface ExpiringThing extends Expiring {
  subjectId: number;
}

const notAfter = (pem: string): number | null => {
  try {
    return Math.floor(new X509Certificate(pem).validToDate.getTime() / 1000);
  } catch {
    return null;
  }
};

/**
 * Domains, hosting services and served site certificates that expire by `until` (those already
 * expired included), of the given items or of every item. Certificates are read from their PEM,
 * so an upload and a free certificate count alike.
 */
export async function expiringThings(store: Store, until: number, itemIds?: number[]): Promise<ExpiringThing[]> {
  if (itemIds?.length === 0) return [];
  const ids = itemIds ?? [];
  const domains = await store
    .selectFrom('domain')
    .innerJoin('item', 'item.id', 'domain.item_id')
    .select(['domain.item_id', 'item.reference', 'domain.expire_at'])
    .where('domain.expire_at', '<=', until)
    .$if(itemIds !== undefined, (q) => q.where('domain.item_id', 'in', ids))
    .execute();
  const services = await store
    .selectFrom('service')
    .innerJoin('item', 'item.id', 'service.item_id')
    .select(['service.item_id', 'item.reference', 'service.expire_at'])
    .where('service.expire_at', '<=', until)
    .$if(itemIds !== undefined, (q) => q.where('service.item_id', 'in', ids))
    .execute();
  const sites = await store
    .selectFrom('site')
    .innerJoin('item', 'item.id', 'site.service_id')
    .select(['site.id', 'site.service_id', 'site.name', 'site.cert', 'site.cert_source', 'item.reference'])
    .where('site.ssl_enabled', '=', 1)
    .where('site.cert', '!=', '')
    .$if(itemIds !== undefined, (q) => q.where('site.service_id', 'in', ids))
    .execute();
  const things: ExpiringThing[] = [
    ...domains.map((d) => thing('domain', d.item_id, d.item_id, d.reference, d.reference, d.expire_at, null)),
    ...services.map((s) => thing('service', s.item_id, s.item_id, s.reference, s.reference, s.expire_at, null)),
  ];
  for (const site of sites) {
    const expiresAt = notAfter(site.cert);
    if (expiresAt === null || expiresAt > until) continue;
    const source = site.cert_source === 'acme' ? 'acme' : 'upload';
    things.push(thing('certificate', site.id, site.service_id, site.reference, `${site.name}.${site.reference}`, expiresAt, source));
  }
  return things.sort((a, b) => a.expiresAt - b.expiresAt || a.name.localeCompare(b.name));
}

function thing(
  kind: ExpiringKind,
  subjectId: number,
  itemId: number,
  reference: string,
  name: string,
  expiresAt: number,
  source: 'acme' | 'upload' | null,
): ExpiringThing {
  return { kind, subjectId, itemId, reference, name, expiresAt, source };
}

/** What of `expiringThings` the user (or their token) may see: the item's area of each thing visible. */
export async function visibleExpiring(store: Store, user: SessionUser, until: number) {
  const rows = await store
    .selectFrom('permission')
    .innerJoin('item', 'item.id', 'permission.item_id')
    .select(['permission.item_id', 'permission.area', 'permission.level'])
    .where('permission.user_id', '=', user.id)
    .where('item.realm_id', '=', user.realmId)
    .where('permission.level', 'in', ['read', 'write'])
    .$if(tokenAreas(user) !== null, (qb) => qb.where('permission.area', 'in', tokenAreas(user)!))
    .$if(tokenItems(user) !== null, (qb) => qb.where('permission.item_id', 'in', tokenItems(user)!))
    .execute();
  const maps = new Map<number, PermissionMap>();
  for (const row of rows) maps.set(row.item_id, { ...maps.get(row.item_id), [row.area]: row.level });
  const things = await expiringThings(store, until, [...maps.keys()]);
  return things.filter((t) => canSee(maps.get(t.itemId), AREA_OF[t.kind])).map(({ subjectId: _, ...t }) => t);
}
