import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Secrets } from '../../secrets.ts';
import { now, type Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { type RegistryDriver, RegistryError, type TransferState, type TransferStatus } from './interface.ts';
import { addYears, type LifePolicy } from './lifecycle.ts';
import { recordTransaction } from './trace.ts';

/** How long the local registry waits for the sponsor's answer before it approves a transfer itself, as gTLD registries do. */
export const TRANSFER_APPROVE_DAYS = 5;
const DAY = 86_400;

/** The client a domain row belongs to: '' is the panel's own account. */
const PANEL = 'panel';

type Db = Kysely<Database>;

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Transfers at the local registry (RFC 5731 §3.2.4), kept in the store as an EPP registry keeps
 * them: `domain.sponsor` is the registrar account holding the domain, `domain_transfer` its last
 * transfer. A request with the right code is pending until the sponsor answers, the requester
 * cancels, or five days pass (checked whenever the domain is read, since nothing else runs the
 * clock); approval moves the sponsor and adds the years asked for to the expiry.
 */
export function localTransfers(store: Store, secrets: Secrets, clientId: string) {
  const sponsorOf = (row: { sponsor: string }) => row.sponsor || PANEL;
  const column = (client: string) => (client === PANEL ? '' : client);

  const touch = (db: Db, itemId: number) => db.updateTable('domain').set({ updated_at: now() }).where('item_id', '=', itemId).execute();

  const pending = async (db: Db, itemId: number) =>
    Boolean(
      await db
        .selectFrom('domain_transfer')
        .select('item_id')
        .where('item_id', '=', itemId)
        .where('status', '=', 'pending')
        .executeTakeFirst(),
    );

  /** Ends a pending transfer: approved (the domain moves, with its years) or refused, at `at`. */
  const end = async (db: Db, itemId: number, status: TransferStatus, at: number) => {
    const t = await db.selectFrom('domain_transfer').selectAll().where('item_id', '=', itemId).executeTakeFirstOrThrow();
    if (status === 'clientApproved' || status === 'serverApproved') {
      const row = await db.selectFrom('domain').select('expire_at').where('item_id', '=', itemId).executeTakeFirstOrThrow();
      await db
        .updateTable('domain')
        .set({ sponsor: column(t.requested_by), expire_at: addYears(row.expire_at, t.years) })
        .where('item_id', '=', itemId)
        .execute();
    }
    await db.updateTable('domain_transfer').set({ status, action_at: at }).where('item_id', '=', itemId).execute();
    await touch(db, itemId);
  };

  /** A transfer whose five days have passed is approved by the registry, as of that moment. */
  const settleDue = async (itemId: number) => {
    const due = await store
      .selectFrom('domain_transfer')
      .select('action_at')
      .where('item_id', '=', itemId)
      .where('status', '=', 'pending')
      .where('action_at', '<=', now())
      .executeTakeFirst();
    if (!due) return;
    await store.transaction().execute(async (trx) => {
      if (await pending(trx, itemId)) await end(trx, itemId, 'serverApproved', Number(due.action_at));
    });
  };

  const stateOf = async (db: Db, itemId: number): Promise<TransferState | null> => {
    const t = await db.selectFrom('domain_transfer').selectAll().where('item_id', '=', itemId).executeTakeFirst();
    if (!t) return null;
    const domain = await db.selectFrom('domain').select(['expire_at', 'sponsor']).where('item_id', '=', itemId).executeTakeFirstOrThrow();
    // As an EPP registry answers a query: only to the sponsor and the two parties to the transfer.
    if (t.requested_by !== clientId && t.action_by !== clientId && sponsorOf(domain) !== clientId) return null;
    return {
      status: t.status as TransferStatus,
      requestedBy: t.requested_by,
      requestedAt: Number(t.requested_at),
      actionBy: t.action_by,
      actionAt: Number(t.action_at),
      expireAt: t.status === 'pending' ? null : Number(domain.expire_at),
      incoming: t.requested_by === clientId,
    };
  };

  /** An answer to a pending transfer, by whom the RFC lets give it; 2301 when none is pending. */
  const answer = (itemId: number, status: TransferStatus) =>
    store.transaction().execute(async (trx) => {
      const domain = await trx.selectFrom('domain').select('sponsor').where('item_id', '=', itemId).executeTakeFirst();
      if (!domain) throw new RegistryError('not_found');
      const t = await trx.selectFrom('domain_transfer').selectAll().where('item_id', '=', itemId).executeTakeFirst();
      if (t?.status !== 'pending') throw new RegistryError('blocked');
      const mayAnswer = status === 'clientCancelled' ? t.requested_by === clientId : sponsorOf(domain) === clientId;
      if (!mayAnswer) throw new RegistryError('authorization');
      await end(trx, itemId, status, now());
      return (await stateOf(trx, itemId))!;
    });

  const methods = (
    policy: LifePolicy,
  ): Pick<
    RegistryDriver,
    'checkAuthInfo' | 'transferRequest' | 'transferQuery' | 'transferApprove' | 'transferReject' | 'transferCancel'
  > => ({
    async checkAuthInfo(itemId, authCode) {
      const row = await store.selectFrom('domain').select('auth_sealed').where('item_id', '=', itemId).executeTakeFirst();
      if (!row) throw new RegistryError('not_found');
      return row.auth_sealed !== null && same(secrets.decrypt(row.auth_sealed), authCode);
    },

    async transferRequest(itemId, authCode, years) {
      await settleDue(itemId);
      const state = await store.transaction().execute(async (trx) => {
        // The write first: it locks the row (PostgreSQL) or takes the write lock (SQLite).
        const [touched] = await touch(trx, itemId);
        if (!touched || Number(touched.numUpdatedRows) === 0) throw new RegistryError('not_found');
        const domain = await trx
          .selectFrom('domain')
          .select(['sponsor', 'auth_sealed', 'transfer_block', 'expire_at'])
          .where('item_id', '=', itemId)
          .executeTakeFirstOrThrow();
        if (sponsorOf(domain) === clientId) throw new RegistryError('exists');
        if (await pending(trx, itemId)) throw new RegistryError('blocked');
        if (domain.transfer_block) throw new RegistryError('blocked');
        if (!domain.auth_sealed || !same(secrets.decrypt(domain.auth_sealed), authCode)) throw new RegistryError('authorization');
        if (years < 1 || years > policy.maxYears) throw new RegistryError('policy', 'years');
        const t = now();
        const row = {
          status: 'pending',
          requested_by: clientId,
          requested_at: t,
          action_by: sponsorOf(domain),
          action_at: t + TRANSFER_APPROVE_DAYS * DAY,
          years,
        };
        await trx
          .insertInto('domain_transfer')
          .values({ item_id: itemId, ...row })
          .onConflict((oc) => oc.column('item_id').doUpdateSet(row))
          .execute();
        return (await stateOf(trx, itemId))!;
      });
      // Accepted and completed later, as a registry's 1001: the change waits for the outcome.
      recordTransaction({ command: 'domain:transfer', clTRID: '', svTRID: '', result: 1001, pending: true });
      return state;
    },

    async transferQuery(itemId) {
      await settleDue(itemId);
      return stateOf(store, itemId);
    },

    transferApprove: (itemId) => answer(itemId, 'clientApproved'),
    transferReject: (itemId) => answer(itemId, 'clientRejected'),
    transferCancel: (itemId) => answer(itemId, 'clientCancelled'),
  });

  return { sponsorOf, pending, settleDue, methods };
}
