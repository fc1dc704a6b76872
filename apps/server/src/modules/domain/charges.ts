import type { Kysely } from 'kysely';
import { dayOf } from '../../drivers/registry/lifecycle.ts';
import type { Database } from '../../store/schema.ts';
import type { Payloads } from './actions.ts';
import { type BillingEvent, recordBilling } from './billing.ts';

/** A registry change as it settles: what its charge is worked out from. */
export interface SettledChange {
  item_id: number;
  action: string;
  payload: string;
}

/** The ledger line of a billable registry action, from its change once the registry applied it (null: nothing to bill). */
type Charge = (db: Kysely<Database>, change: SettledChange) => Promise<BillingEvent | null>;

/**
 * The billable registry actions (decision 051). Their ledger line is written by `settleChange`, in
 * the transaction that settles the change `done`: the job's, or the poll's for a change the
 * registry completed later. A job run twice settles its change once, and the ledger's unique
 * index (domain, action, from date) keeps a line from being written twice whatever happens. A new
 * billable action is one entry here.
 */
const CHARGES: Partial<Record<string, Charge>> = {
  register: async (db, change) => {
    const { registration, actor } = JSON.parse(change.payload) as Payloads['register'];
    const domain = await db
      .selectFrom('domain')
      .select(['name', 'expire_at', 'created_at'])
      .where('item_id', '=', change.item_id)
      .executeTakeFirst();
    if (!domain) return null;
    return {
      itemId: change.item_id,
      domain: domain.name,
      action: 'register',
      years: registration.years ?? 1,
      // A domain of the panel is registered once (a purged one is a new item): the day the panel
      // got it names its one registration, however often or on whatever day it is asked.
      fromDate: dayOf(domain.created_at),
      expireAt: domain.expire_at,
      actor,
    };
  },
};

/** Bills a change that settled done, when its action is billable; answers whether a line was written. */
export async function chargeOnSettle(db: Kysely<Database>, change: SettledChange): Promise<boolean> {
  const charge = CHARGES[change.action];
  const event = charge ? await charge(db, change) : null;
  return event ? recordBilling(db, event) : false;
}
