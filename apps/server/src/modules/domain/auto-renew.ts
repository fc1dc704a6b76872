import type { Transaction } from 'kysely';
import type { Config } from '../../config/config.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import type { Schedule } from '../../scheduler.ts';
import { now } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import type { Payloads } from './actions.ts';
import { queueRegistryChange } from './changes.ts';

const DAY = 86_400;

interface Claimed {
  item_id: number;
  name: string;
  expire_at: number;
}

/**
 * Claims the domains in renewal mode `auto` whose expiry is within `days` (and not past their
 * renewal grace): each expiry is claimed once, so that however often the schedule runs, and in
 * however many processes, one run renews it.
 */
export async function claimRenewals(trx: Transaction<Database>, days: number, graceDays: number, at: number): Promise<Claimed[]> {
  const due = await trx
    .selectFrom('domain')
    .select(['item_id', 'name', 'expire_at', 'renew_claimed'])
    .where('renewal_mode', '=', 'auto')
    // A domain still waiting for its transfer in, or gone out, is another registrar's to renew.
    .where('transfer_in', '=', 0)
    .where('sponsor', '=', '')
    .where('expire_at', '<=', at + days * DAY)
    .where('expire_at', '>', at - graceDays * DAY)
    .execute();
  const claimed = due.filter((d) => d.renew_claimed === null || Number(d.renew_claimed) !== Number(d.expire_at));
  for (const d of claimed) {
    await trx.updateTable('domain').set({ renew_claimed: d.expire_at }).where('item_id', '=', d.item_id).execute();
  }
  return claimed.map(({ item_id, name, expire_at }) => ({ item_id, name, expire_at: Number(expire_at) }));
}

export interface RenewalOutcome {
  name: string;
  /** The renewal's registry change: the outbox applies and bills it (decision 052). */
  change: number;
}

/**
 * Queues a renewal of each claimed domain for a year from the expiry it was claimed at
 * (curExpDate: a domain someone renewed meanwhile is refused by the registry, not renewed twice),
 * in the claim's transaction: the claim and its change commit together. The change's job bills it
 * once, when the registry has applied it.
 */
export async function queueRenewals(trx: Transaction<Database>, claimed: Claimed[]): Promise<RenewalOutcome[]> {
  const outcomes: RenewalOutcome[] = [];
  for (const d of claimed) {
    const payload: Payloads['renew'] = { years: 1, curExpDate: d.expire_at, actor: 'schedule' };
    outcomes.push({ name: d.name, change: await queueRegistryChange(trx, { itemId: d.item_id, action: 'renew', payload }) });
  }
  return outcomes;
}

/** What the schedule does, at a time of the caller's. */
export async function renewDue(runtime: Runtime, at = now()): Promise<RenewalOutcome[]> {
  const { config, store, drivers } = runtime;
  return store
    .transaction()
    .execute(async (trx) =>
      queueRenewals(trx, await claimRenewals(trx, config.expiry.autoRenewDays, drivers.registry.policy.graceDays, at)),
    );
}

/** The renewals as a schedule (runtime.ts's SCHEDULES): claimed and queued in the leader's transaction. */
export const autoRenewSchedule = (config: Config, runtime: Runtime): Schedule => ({
  name: 'domain-auto-renew',
  everyMs: 3_600_000,
  firstAfterMs: 10_000,
  run: async (trx) => {
    await queueRenewals(trx, await claimRenewals(trx, config.expiry.autoRenewDays, runtime.drivers.registry.policy.graceDays, now()));
  },
});
