import type { Area } from '@atalaya/contract';
import type { Store } from '../../store/db.ts';

// The landing rule (docs/behaviour/shell-session-domains.md#states): the first write permission in this order; each area needs its kind.
const ORDER: { area: Area; kind: 'domain' | 'service' | 'mail' }[] = [
  { area: 'domain', kind: 'domain' },
  { area: 'service', kind: 'service' },
  { area: 'servicemail', kind: 'mail' },
  { area: 'service_dnszone', kind: 'service' },
];

/** The item the user lands on after sign-in (first by reference), or null for the dashboard. */
export async function landingItem(store: Store, user: { id: number; realmId: number }): Promise<number | null> {
  const rows = await store
    .selectFrom('permission')
    .innerJoin('item', 'item.id', 'permission.item_id')
    .leftJoin('domain', 'domain.item_id', 'item.id')
    .leftJoin('service', 'service.item_id', 'item.id')
    .leftJoin('mail_service', 'mail_service.item_id', 'item.id')
    .select(['item.id', 'item.reference', 'permission.area', 'domain.item_id as d', 'service.item_id as s', 'mail_service.item_id as m'])
    .where('permission.user_id', '=', user.id)
    .where('permission.level', '=', 'write')
    .where(
      'permission.area',
      'in',
      ORDER.map((o) => o.area),
    )
    .where('item.realm_id', '=', user.realmId)
    .orderBy('item.reference')
    .execute();
  for (const { area, kind } of ORDER) {
    const hit = rows.find((r) => r.area === area && (kind === 'domain' ? r.d : kind === 'service' ? r.s : r.m) !== null);
    if (hit) return hit.id;
  }
  return null;
}
