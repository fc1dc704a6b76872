import { type Area, SCREEN_AREA } from '@atalaya/contract';
import { sql } from 'kysely';
import type { Store } from '../../store/db.ts';
import { KIND_TABLE } from '../lists/entries.ts';

// The landing rule (docs/behaviour/shell-session-domains.md#states): the first write permission in this order; each area needs its kind.
const ORDER: { area: Area; kind: 'domain' | 'service' | 'mail' }[] = [
  { area: SCREEN_AREA.domain, kind: 'domain' },
  { area: SCREEN_AREA.hosting, kind: 'service' },
  { area: SCREEN_AREA.mail, kind: 'mail' },
  { area: SCREEN_AREA.dnsZone, kind: 'service' },
];

/**
 * The item the user lands on after sign-in (first by reference), or null for the dashboard. One
 * query per step of the order, each stopping at its first row, so a realm of 100,000 items costs
 * four index walks, not a read of every permission.
 */
export async function landingItem(store: Store, user: { id: number; realmId: number }): Promise<number | null> {
  for (const { area, kind } of ORDER) {
    const hit = await store
      .selectFrom('item')
      .innerJoin(sql<{ item_id: number }>`${sql.table(KIND_TABLE[kind])}`.as('k'), 'k.item_id', 'item.id')
      .innerJoin('permission', 'permission.item_id', 'item.id')
      .select('item.id')
      .where('permission.user_id', '=', user.id)
      .where('permission.area', '=', area)
      .where('permission.level', '=', 'write')
      .where('item.realm_id', '=', user.realmId)
      .orderBy('item.reference')
      .limit(1)
      .executeTakeFirst();
    if (hit) return hit.id;
  }
  return null;
}
