import type { DomainInfo, RegistryDriver } from '../../drivers/registry/interface.ts';
import { dayOf } from '../../drivers/registry/lifecycle.ts';
import { emitEvent } from '../../kernel/events.ts';
import { now, type Store } from '../../store/db.ts';
import { recordBilling } from './billing.ts';

/**
 * A renewal at the registry, from the expiry the caller saw (curExpDate: one sent twice finds a
 * later date and is refused there, not renewed twice), billed once in the ledger and reported as
 * `domain.renewed` in the same transaction. The customer's screen, the auto-renew schedule and the
 * operator API all renew through here. Answers the new expiry.
 */
export async function renewAndBill(
  store: Store,
  registry: RegistryDriver,
  domain: Pick<DomainInfo, 'itemId' | 'name' | 'expireAt'>,
  years: number,
  actor: string,
) {
  const expireAt = await registry.renew(domain.itemId, years, domain.expireAt);
  await billRenewal(store, domain, years, expireAt, actor);
  return expireAt;
}

/** The ledger's line of a renewal the registry applied, and its `domain.renewed`, once however often it is asked. */
export async function billRenewal(
  store: Store,
  domain: Pick<DomainInfo, 'itemId' | 'name' | 'expireAt'>,
  years: number,
  expireAt: number,
  actor: string,
) {
  await store.transaction().execute(async (trx) => {
    const billed = await recordBilling(trx, {
      itemId: domain.itemId,
      domain: domain.name,
      action: 'renew',
      years,
      fromDate: dayOf(domain.expireAt),
      expireAt,
      actor,
    });
    if (billed) await emitEvent(trx, 'domain.renewed', { name: domain.name, years, expireAt, actor, at: now() });
  });
}
