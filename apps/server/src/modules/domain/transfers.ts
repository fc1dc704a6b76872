import { type Language, type TransferView, translate } from '@atalaya/contract';
import type { Kysely } from 'kysely';
import type { DomainInfo, RegistryDriver, TransferState } from '../../drivers/registry/interface.ts';
import { addYears, dayOf } from '../../drivers/registry/lifecycle.ts';
import { now, type Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { recordBilling } from './billing.ts';
import { settleChange } from './changes.ts';

/** The registry actions of a transfer, as `registry_change.action` names them. */
export const TRANSFER_ACTIONS = ['transferRequest', 'transferApprove', 'transferReject', 'transferCancel'] as const;

const APPROVED = new Set(['clientApproved', 'serverApproved']);

/** This panel's transfer request of a domain that waits for the registry's outcome. */
const awaitingRequest = (db: Kysely<Database>, itemId: number) =>
  db
    .selectFrom('registry_change')
    .select(['id', 'payload', 'user_id'])
    .where('item_id', '=', itemId)
    .where('action', '=', 'transferRequest')
    .where('state', '=', 'awaiting')
    .orderBy('id', 'desc')
    .executeTakeFirst();

/**
 * The end of this panel's transfer in, as the registry reported it (a poll message's trnData, or
 * the local registry's query): approved, the domain is the panel's from now on (the item stops
 * waiting, the store takes the registry's expiry, the ledger one `transfer_in`); refused or
 * cancelled, the request shows failed with why. Only a request still awaiting is settled, so a
 * notice read twice changes nothing the second time. Answers whether it settled one.
 */
export async function settleTransferIn(db: Kysely<Database>, itemId: number, state: TransferState): Promise<boolean> {
  if (state.status === 'pending' || !state.incoming) return false;
  const change = await awaitingRequest(db, itemId);
  if (!change) return false;
  if (!APPROVED.has(state.status)) {
    await settleChange(db, change.id, { state: 'failed', message: state.status });
    const key = state.status === 'clientRejected' ? 'domain.transfer_refused' : 'domain.transfer_withdrawn';
    await db
      .updateTable('registry_change')
      .set({ message: JSON.stringify({ key, params: {} }) })
      .where('id', '=', change.id)
      .execute();
    await db.updateTable('domain').set({ updated_at: now() }).where('item_id', '=', itemId).execute();
    return true;
  }
  await settleChange(db, change.id, { state: 'done' });
  const row = await db.selectFrom('domain').select(['name', 'expire_at']).where('item_id', '=', itemId).executeTakeFirstOrThrow();
  const { years } = JSON.parse(change.payload) as { years: number };
  const expireAt = state.expireAt ?? Number(row.expire_at);
  await db
    .updateTable('domain')
    .set({ transfer_in: 0, sponsor: '', expire_at: expireAt, renew_claimed: null, updated_at: now() })
    .where('item_id', '=', itemId)
    .execute();
  // Billed from the expiry it had before the years the transfer added: one event, however often it is read.
  await recordBilling(db, {
    itemId,
    domain: row.name,
    action: 'transfer_in',
    years,
    fromDate: dayOf(addYears(expireAt, -years)),
    expireAt,
    actor: change.user_id === null ? 'operator' : `user:${change.user_id}`,
  });
  return true;
}

/**
 * A poll queue's transfer notice: the end of this panel's transfer in, or a domain of ours gone to
 * the registrar that asked for it, which the store then names as its holder so that nothing here
 * (the renewal schedule) acts on it any more.
 */
export async function settleTransferNotice(db: Kysely<Database>, itemId: number, state: TransferState) {
  if (state.incoming) return settleTransferIn(db, itemId, state);
  if (!APPROVED.has(state.status)) return false;
  await db.updateTable('domain').set({ sponsor: state.requestedBy, updated_at: now() }).where('item_id', '=', itemId).execute();
  return true;
}

/**
 * A registry without a message queue (the local one) tells the outcome only when asked: a domain
 * that waits for its transfer in is asked each time it is read. With a queue, the poll schedule
 * settles it and reads never write. Answers whether something changed.
 */
export async function followTransfer(store: Store, registry: RegistryDriver, info: DomainInfo): Promise<boolean> {
  if (registry.pollMessage || !(info.transferIn || info.heldBy !== null)) return false;
  if (!(await awaitingRequest(store, info.itemId))) return false;
  const state = await registry.transferQuery(info.itemId);
  if (!state || state.status === 'pending') return false;
  return store.transaction().execute((trx) => settleTransferIn(trx, info.itemId, state));
}

/** GET /domain/{id}/transfer/: the registry's last transfer of the domain, with this panel's transfer change still open. */
export async function transferView(store: Store, registry: RegistryDriver, info: DomainInfo, language: Language): Promise<TransferView> {
  const state = await registry.transferQuery(info.itemId);
  const change = await store
    .selectFrom('registry_change as c')
    .leftJoin('job', 'job.id', 'c.job_id')
    .select(['c.id', 'c.action', 'c.state', 'c.message', 'job.status as job_status'])
    .where('c.item_id', '=', info.itemId)
    .where('c.action', 'in', [...TRANSFER_ACTIONS])
    .orderBy('c.id', 'desc')
    .executeTakeFirst();
  const failed = change && (change.state === 'failed' || (change.state === 'queued' && change.job_status === 'failed'));
  const message = change?.message ? (JSON.parse(change.message) as { key: string; params: Record<string, string> }) : null;
  return {
    direction: state ? (state.incoming ? 'in' : 'out') : info.transferIn ? 'in' : null,
    status: state?.status ?? 'none',
    requestedBy: state?.requestedBy ?? '',
    requestedAt: state?.requestedAt ?? 0,
    approveAt: state?.actionAt ?? 0,
    expireTS: state?.expireAt ?? null,
    heldBy: info.heldBy,
    transferIn: info.transferIn,
    change:
      change && change.state !== 'done'
        ? {
            id: change.id,
            action: change.action,
            state: failed ? 'failed' : 'pending',
            message: failed
              ? message
                ? translate(language, message.key, message.params)
                : translate(language, 'domain.registry_failed')
              : '',
            // A transfer is asked again with its code, not retried: the code may have changed.
            job: null,
          }
        : null,
  };
}
