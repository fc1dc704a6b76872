import type { Kysely } from 'kysely';
import { dayOf } from '../../drivers/registry/lifecycle.ts';
import { emitEvent } from '../../kernel/events.ts';
import { now } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { type BillableAction, recordBilling } from './billing.ts';

const YEAR = 365 * 86_400;
/** A domain's expiry before a billable change: the ledger line's `fromDate`, which makes it once. */
interface Before {
  itemId: number;
  expireAt: number;
}

/**
 * The ledger's line of a renewal the registry applied, its `domain.renewed`, and the expiry the
 * panel stores, in the caller's transaction (the one settling the change: decision 052), once
 * however often it is asked. The customer's screen, the bulk renewal, the auto-renew schedule, the
 * operator API and reconcile all bill renewals through here.
 */
export function billRenewal(trx: Kysely<Database>, before: Before, years: number, expireAt: number, actor: string) {
  return bill(trx, 'renew', before, years, expireAt, actor);
}

/** The same for a restore: years are those the registry renewed it by to make it current. */
export function billRestore(trx: Kysely<Database>, before: Before, expireAt: number, actor: string) {
  return bill(trx, 'restore', before, Math.max(0, Math.round((expireAt - before.expireAt) / YEAR)), expireAt, actor);
}

async function bill(trx: Kysely<Database>, action: BillableAction, before: Before, years: number, expireAt: number, actor: string) {
  const row = await trx.selectFrom('domain').select('name').where('item_id', '=', before.itemId).executeTakeFirstOrThrow();
  await trx.updateTable('domain').set({ expire_at: expireAt, updated_at: now() }).where('item_id', '=', before.itemId).execute();
  const billed = await recordBilling(trx, {
    itemId: before.itemId,
    domain: row.name,
    action,
    years,
    fromDate: dayOf(before.expireAt),
    expireAt,
    actor,
  });
  if (!billed) return;
  if (action === 'renew') await emitEvent(trx, 'domain.renewed', { name: row.name, years, expireAt, actor, at: now() });
  else await emitEvent(trx, 'domain.restored', { name: row.name, expireAt, actor, at: now() });
}
