import { X509Certificate } from 'node:crypto';
import type { Area, Expiring, ExpiringKind } from '@atalaya/contract';
import type { Kysely } from 'kysely';
import { type LifePolicy, lifecycleAt } from '../../drivers/registry/lifecycle.ts';
import type { Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import type { Caller } from '../permission/caller.ts';
import { visibleRows } from '../permission/visible.ts';

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
export async function expiringThings(store: Kysely<Database>, until: number, itemIds?: number[]): Promise<ExpiringThing[]> {
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

/** What expires by `until` among what the caller sees: each thing shown only where its area is visible. */
export async function expiringFor(store: Store, caller: Caller & { realmId: number }, until: number): Promise<Expiring[]> {
  const rows = await visibleRows(store, caller)
    .innerJoin('item', 'item.id', 'p.item_id')
    .select(['p.item_id', 'p.area'])
    .where('item.realm_id', '=', caller.realmId)
    .execute();
  const areas = new Map<number, Set<string>>();
  for (const row of rows) areas.set(row.item_id, (areas.get(row.item_id) ?? new Set()).add(row.area));
  const things = await expiringThings(store, until, [...areas.keys()]);
  return things.filter((t) => areas.get(t.itemId)?.has(AREA_OF[t.kind])).map(({ subjectId: _, ...t }) => t);
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

/** Each expiring domain with where it stands at its registry now (active, grace, redemption, pending delete). */
export const withRegistryState = (expiring: Expiring[], at: number, policy: LifePolicy) =>
  expiring.map((e) => (e.kind === 'domain' ? { ...e, expiry: lifecycleAt(e.expiresAt, at, policy) } : e));
