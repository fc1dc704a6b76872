import type { WebhookEvent } from '@atalaya/contract';
import { ApiError } from '../../http/errors.ts';
import { emitEvent } from '../../kernel/events.ts';
import { toDomainName } from '../../kernel/names.ts';
import { now, type Store } from '../../store/db.ts';
import { AccountError, findItem, findRealm } from '../provisioning/accounts.ts';
import { cancelTermination, reapplyHosting } from './termination.ts';

/**
 * Runs one of the CLI's provisioning functions for an operator call: its refusal (an unknown
 * realm, a taken name, a short password) answers 422 with the reason the CLI would print.
 */
export async function refusedAs422<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AccountError) throw new ApiError(422, 'operator.refused', { reason: error.message });
    throw error;
  }
}

const changed = (event: WebhookEvent, data: Record<string, unknown>) => ({ event, data: { ...data, at: now() } });

/**
 * Suspends or restores a realm for its billing: suspension disables it (no sign-in, no session, no
 * API token answers, its users told why at sign-in) and marks it suspended, so restoring lifts only
 * what the suspension set; its items' sites answer the suspension page meanwhile. Restoring also
 * calls off a termination still in its grace period. Webhook endpoints hear it in the same transaction.
 */
export async function setRealmSuspended(store: Store, name: string, suspended: boolean) {
  const realm = await findRealm(store, name);
  await store.transaction().execute(async (trx) => {
    const flag = suspended ? 1 : 0;
    await trx
      .updateTable('realm')
      .set({ suspended: flag, disabled: flag })
      .where('id', '=', realm.id)
      .$if(!suspended, (qb) => qb.where('suspended', '=', 1))
      .execute();
    if (!suspended) await cancelTermination(trx, { realmId: realm.id });
    if (realm.suspended !== flag) {
      const items = await trx.selectFrom('item').select('id').where('realm_id', '=', realm.id).execute();
      await reapplyHosting(
        trx,
        items.map((i) => i.id),
      );
      const { event, data } = changed(suspended ? 'service.suspended' : 'service.unsuspended', { realm: realm.name });
      await emitEvent(trx, event, data);
    }
  });
  return { name: realm.name, suspended };
}

/**
 * Suspends or restores one item: it is shown as suspended, its sites answer the suspension page
 * (its hosting re-applied in the same transaction), its mail keeps arriving.
 */
export async function setItemSuspended(store: Store, realm: string, reference: string, suspended: boolean) {
  const item = await findItem(store, realm, reference);
  const realmName = (await findRealm(store, realm)).name;
  const flag = suspended ? 1 : 0;
  await store.transaction().execute(async (trx) => {
    await trx.updateTable('item').set({ suspended: flag }).where('id', '=', item.id).execute();
    if (!suspended) await cancelTermination(trx, { itemId: item.id });
    if (item.suspended !== flag) {
      await reapplyHosting(trx, [item.id]);
      const { event, data } = changed(suspended ? 'service.suspended' : 'service.unsuspended', {
        realm: realmName,
        reference: item.reference,
      });
      await emitEvent(trx, event, data);
    }
  });
  return { id: item.id, reference: item.reference, suspended };
}

/**
 * Whether a domain name is free to register here: a valid name that no item of any realm holds.
 * The registry drivers have no availability command yet (the domain-life work adds it), so the
 * panel's own store, which is what the local registry is, answers.
 */
export async function domainAvailable(store: Store, name: string) {
  const domain = toDomainName(name);
  if (!domain) throw new AccountError(`"${name}" is not a valid domain name`);
  const taken = await store.selectFrom('item').select('id').where('reference', '=', domain).executeTakeFirst();
  return { name: domain, available: !taken };
}
