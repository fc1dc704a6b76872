import type { Transaction } from 'kysely';
import type { Config } from '../../config/config.ts';
import type { ContactData } from '../../drivers/registry/interface.ts';
import type { Schedule } from '../../scheduler.ts';
import { now } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { recordActivity } from '../activity/record.ts';
import { queueRegistryChange } from './changes.ts';

/** The days a change of owner locks transfers of a domain: its TLD's, else the configured default. */
export function lockDaysFor(config: Config, name: string): number {
  const tld = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  return config.ownerChange.tlds[tld] ?? config.ownerChange.lockDays;
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Whether saving `next` as the registrant hands the domain to another person or organisation:
 * another name, organisation or e-mail, as the ICANN transfer policy defines a change of
 * registrant. An address or a phone number is a correction, not a new owner.
 */
export function isOwnerChange(current: ContactData | undefined, next: ContactData): boolean {
  if (!current) return false;
  const name = (c: ContactData) => `${c.firstName} ${c.lastName}`;
  return !same(name(current), name(next)) || !same(current.orgName, next.orgName) || !same(current.email, next.email);
}

/** The day a Unix time falls on, as the messages and the activity log write it. */
export const dayText = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/**
 * Applies the transfer lock of a change of owner in the caller's transaction: the transfer block
 * queued for the registry and the date it ends kept on the domain (a later end wins), where the
 * schedule below finds it.
 */
export async function lockTransfers(trx: Transaction<Database>, itemId: number, until: number, userId: number | null) {
  const row = await trx.selectFrom('domain').select('transfer_lock_until').where('item_id', '=', itemId).executeTakeFirst();
  const end = Math.max(until, Number(row?.transfer_lock_until ?? 0));
  await queueRegistryChange(trx, { itemId, action: 'status', payload: { status: 'clientTransferProhibited', on: true }, userId });
  await trx.updateTable('domain').set({ transfer_lock_until: end, updated_at: now() }).where('item_id', '=', itemId).execute();
  return end;
}

/**
 * Lifts each transfer lock whose date has passed: the transfer block's removal queued for the
 * registry and the date cleared in the leader's transaction, so that one run lifts it, once.
 */
export async function liftTransferLocks(trx: Transaction<Database>, at = now()) {
  const due = await trx
    .selectFrom('domain')
    .innerJoin('item', 'item.id', 'domain.item_id')
    .select(['domain.item_id', 'item.reference', 'item.realm_id', 'domain.transfer_lock_until'])
    .where('domain.transfer_lock_until', '<=', at)
    .execute();
  for (const d of due) {
    await queueRegistryChange(trx, { itemId: d.item_id, action: 'status', payload: { status: 'clientTransferProhibited', on: false } });
    await trx.updateTable('domain').set({ transfer_lock_until: null, updated_at: now() }).where('item_id', '=', d.item_id).execute();
    await recordActivity(trx, {
      action: 'domain.transfer_lock_lifted',
      actor: 'cli',
      realmId: d.realm_id,
      item: { id: d.item_id, reference: d.reference },
      area: 'domain_transferblock',
      detail: { until: dayText(Number(d.transfer_lock_until)) },
    });
  }
  return due.length;
}

/** The schedule that lifts the locks (runtime.ts's SCHEDULES). */
export const transferLockSchedule = (_config: Config): Schedule => ({
  name: 'domain-transfer-lock',
  everyMs: 600_000,
  firstAfterMs: 15_000,
  run: (trx) => liftTransferLocks(trx),
});
