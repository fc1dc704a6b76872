import type { Kysely } from 'kysely';
import { dayOf } from '../../drivers/registry/lifecycle.ts';
import { now, type Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import type { SessionUser } from '../permission/caller.ts';

export type BillableAction = 'register' | 'renew' | 'restore' | 'transfer_in';

/** Who a billing event names: the user, or the API token acting for them. */
export const actorName = (user: SessionUser) => (user.token ? `token:${user.token.id}:user:${user.id}` : `user:${user.id}`);

export interface BillingEvent {
  itemId: number;
  domain: string;
  action: BillableAction;
  years: number;
  /** YYYY-MM-DD the action starts from: a renewal's curExpDate, the expiry a restore brought back, the day the panel got a domain it registers. */
  fromDate: string;
  expireAt: number;
  actor: string;
}

/**
 * Writes a billable action to the ledger once: the same action on the same domain from the same
 * date is one event (a unique index), so a retried request or schedule cannot bill twice.
 * Answers whether this call recorded it.
 */
export async function recordBilling(store: Kysely<Database>, event: BillingEvent): Promise<boolean> {
  const result = await store
    .insertInto('billing_event')
    .values({
      item_id: event.itemId,
      domain: event.domain,
      action: event.action,
      years: event.years,
      from_date: event.fromDate,
      expire_at: event.expireAt,
      actor: event.actor,
      created_at: now(),
    })
    .onConflict((oc) => oc.columns(['item_id', 'action', 'from_date']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return result !== undefined;
}

/** The ledger from a time on (Unix seconds), oldest first, as the provider's billing reads it. */
export async function billingEventsSince(store: Store, since: number) {
  const rows = await store
    .selectFrom('billing_event')
    .selectAll()
    .where('created_at', '>=', since)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    at: new Date(Number(r.created_at) * 1000).toISOString(),
    itemId: r.item_id,
    domain: r.domain,
    action: r.action,
    years: r.years,
    fromDate: r.from_date,
    expireAt: new Date(Number(r.expire_at) * 1000).toISOString().slice(0, 10),
    actor: r.actor,
  }));
}

/**
 * The ledger's line of a registration the registry applied (decision 051), written by the register
 * action's settle in the transaction that marks its change done. A domain of the panel is
 * registered once (a purged one is a new item): the day the panel got it names its one
 * registration, so the ledger's unique index keeps it one line however often it is asked.
 */
export async function billRegistration(
  db: Kysely<Database>,
  itemId: number,
  { registration, actor }: { registration: { years?: number }; actor: string },
) {
  const domain = await db.selectFrom('domain').select(['name', 'expire_at', 'created_at']).where('item_id', '=', itemId).executeTakeFirst();
  if (!domain) return;
  await recordBilling(db, {
    itemId,
    domain: domain.name,
    action: 'register',
    years: registration.years ?? 1,
    fromDate: dayOf(domain.created_at),
    expireAt: domain.expire_at,
    actor,
  });
}
