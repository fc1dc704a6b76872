import {
  type Area,
  type BulkAction,
  type BulkAnswer,
  type BulkItemState,
  type bulkSchema,
  type ContactType,
  canAct,
  canSee,
  type Language,
  OTHER_CONTACT_TYPES,
  translate,
} from '@atalaya/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { ContactData } from '../../drivers/registry/interface.ts';
import { addYears, lifecycleAt } from '../../drivers/registry/lifecycle.ts';
import { FieldErrors, notFound } from '../../http/errors.ts';
import { isStoredId } from '../../http/ids.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { now } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import type { SessionUser } from '../permission/caller.ts';
import { type AuthCache, callerKey } from '../session/auth-cache.ts';
import type { Payloads } from './actions.ts';
import { actorName } from './billing.ts';
import { queueRegistryChange } from './changes.ts';

export type BulkFields = z.output<typeof bulkSchema>;
type Message = { key: string; params?: Record<string, string | number> };

/** The area each action needs write on: the same as the action's single call. */
function areaOf(fields: BulkFields): Area {
  switch (fields.action) {
    case 'renew':
    case 'renewal':
      return 'domain';
    case 'nameServers':
      return 'domain_dns';
    case 'lock':
      return fields.lock === 'block' ? 'domain_others' : 'domain_transferblock';
    case 'contacts':
      return 'domain_contacts';
  }
}

/** What one domain of the batch comes to before the registry: a change to queue, a panel write, or an answer already. */
type Planned =
  | { itemId: number; name: string; state: 'skipped' | 'failed'; message: Message }
  | { itemId: number; name: string; state: 'queued'; change: { action: string; payload: unknown } }
  | { itemId: number; name: string; state: 'done' };

interface Caller {
  user: SessionUser;
  authCache: AuthCache;
}

/**
 * Checks every id as its single call would (hidden or another realm's: skipped as not found, its
 * name never read; visible without write: skipped for lack of permission), then what the panel
 * can tell without the registry, and plans the rest as registry changes.
 */
async function plan(runtime: Runtime, caller: Caller, fields: BulkFields, ids: number[]): Promise<Planned[]> {
  const { store, drivers } = runtime;
  const area = areaOf(fields);
  const at = now();
  const policy = drivers.registry.policy;
  const visible = ids.filter(isStoredId);
  const rows = visible.length
    ? await store
        .selectFrom('domain')
        .select(['item_id', 'name', 'expire_at', 'transfer_lock_until'])
        .where('item_id', 'in', visible)
        .execute()
    : [];
  const byId = new Map(rows.map((r) => [Number(r.item_id), r]));
  const contacts = fields.action === 'contacts' ? await sourceContacts(runtime, caller, fields.sourceId) : null;
  const planned: Planned[] = [];
  for (const itemId of ids) {
    const access = isStoredId(itemId) ? await caller.authCache.itemAccess(caller.user, itemId) : null;
    const row = byId.get(itemId);
    if (!access || !row || !canSee(access.permissions, area)) {
      planned.push({ itemId, name: '', state: 'skipped', message: { key: 'domain.bulk_not_found' } });
      continue;
    }
    const name = row.name;
    if (!canAct(access.permissions, area)) {
      planned.push({ itemId, name, state: 'skipped', message: { key: 'domain.bulk_no_permission' } });
      continue;
    }
    const expireAt = Number(row.expire_at);
    switch (fields.action) {
      case 'renew': {
        const life = lifecycleAt(expireAt, at, policy);
        if (life.state !== 'active' && life.state !== 'grace')
          planned.push({ itemId, name, state: 'failed', message: { key: 'domain.renew_not_allowed' } });
        else if (addYears(expireAt, fields.years) > addYears(at, policy.maxYears))
          planned.push({ itemId, name, state: 'failed', message: { key: 'domain.renew_years', params: { max: policy.maxYears } } });
        else {
          const payload: Payloads['renew'] = { years: fields.years, curExpDate: expireAt, actor: actorName(caller.user) };
          planned.push({ itemId, name, state: 'queued', change: { action: 'renew', payload } });
        }
        break;
      }
      case 'renewal':
        planned.push({ itemId, name, state: 'done' });
        break;
      case 'nameServers': {
        const payload: Payloads['nameServers'] = { mode: 'setDNS', hosts: fields.servers };
        planned.push({ itemId, name, state: 'queued', change: { action: 'nameServers', payload } });
        break;
      }
      case 'lock': {
        const until = Number(row.transfer_lock_until ?? 0);
        if (fields.lock === 'transferblock' && !fields.on && until > at) {
          planned.push({ itemId, name, state: 'failed', message: transferLocked(until) });
          break;
        }
        const status = fields.lock === 'block' ? 'clientUpdateProhibited' : 'clientTransferProhibited';
        const payload: Payloads['status'] = { status, on: fields.on };
        planned.push({ itemId, name, state: 'queued', change: { action: 'status', payload } });
        break;
      }
      case 'contacts': {
        if (itemId === fields.sourceId) {
          planned.push({ itemId, name, state: 'done' });
          break;
        }
        const payload: Payloads['contactsCopy'] = { contacts: contacts! };
        planned.push({ itemId, name, state: 'queued', change: { action: 'contactsCopy', payload } });
        break;
      }
    }
  }
  return planned;
}

/** The refusal of lifting a transfer lock a change of owner set, with its end date. */
export const transferLocked = (until: number): Message => ({
  key: 'domain.transfer_locked',
  params: { date: new Date(until * 1000).toISOString().slice(0, 10) },
});

/** The admin, billing and tech contacts of the domain copied from: the caller must see them. */
async function sourceContacts(runtime: Runtime, caller: Caller, sourceId: number) {
  const access = isStoredId(sourceId) ? await caller.authCache.itemAccess(caller.user, sourceId) : null;
  if (!access || !canSee(access.permissions, 'domain_contacts')) throw FieldErrors.one('sourceId', 'domain.bulk_source');
  const info = await runtime.drivers.registry.info(sourceId);
  const contacts: Partial<Record<ContactType, ContactData>> = {};
  for (const role of OTHER_CONTACT_TYPES) if (info?.contacts[role]) contacts[role] = info.contacts[role];
  if (Object.keys(contacts).length === 0) throw FieldErrors.one('sourceId', 'domain.bulk_source');
  return contacts;
}

/**
 * Writes what was planned: a registry change per queued domain, the panel's own setting, and one
 * row per domain (new rows, or the rows of a retry given in `rows`, in the plan's order).
 */
async function write(trx: Kysely<Database>, fields: BulkFields, bulkId: number, userId: number, planned: Planned[], rows?: number[]) {
  const done = planned.filter((p) => p.state === 'done').map((p) => p.itemId);
  if (fields.action === 'renewal' && done.length)
    await trx
      .updateTable('domain')
      .set({ renewal_mode: fields.mode, renew_claimed: null, updated_at: now() })
      .where('item_id', 'in', done)
      .execute();
  for (const [i, p] of planned.entries()) {
    const changeId = p.state === 'queued' ? await queueRegistryChange(trx, { itemId: p.itemId, ...p.change, userId }) : null;
    const values = { name: p.name, state: p.state, message: 'message' in p ? JSON.stringify(p.message) : '', change_id: changeId };
    if (rows) await trx.updateTable('domain_bulk_item').set(values).where('id', '=', rows[i]).execute();
    else
      await trx
        .insertInto('domain_bulk_item')
        .values({ bulk_id: bulkId, item_id: p.itemId, ...values })
        .execute();
  }
}

/** Starts a bulk action: every domain planned, then the batch written in one transaction with its registry changes. */
export async function startBulk(runtime: Runtime, caller: Caller, fields: BulkFields): Promise<number> {
  const max = runtime.drivers.registry.policy.maxYears;
  if (fields.action === 'renew' && (fields.years < 1 || fields.years > max)) throw FieldErrors.one('years', 'domain.renew_years', { max });
  const planned = await plan(runtime, caller, fields, fields.ids);
  const userId = caller.user.id;
  return runtime.store.transaction().execute(async (trx) => {
    const bulk = await trx
      .insertInto('domain_bulk')
      .values({ user_id: userId, caller: callerKey(caller.user), action: fields.action, fields: JSON.stringify(fields), created_at: now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await write(trx, fields, bulk.id, userId, planned);
    return bulk.id;
  });
}

/** The caller's own bulk action, or 404: another user's batch, or another token's, is not theirs to see. */
async function bulkOf(runtime: Runtime, user: SessionUser, bulkId: number) {
  const bulk = isStoredId(bulkId)
    ? await runtime.store
        .selectFrom('domain_bulk')
        .selectAll()
        .where('id', '=', bulkId)
        .where('caller', '=', callerKey(user))
        .executeTakeFirst()
    : undefined;
  if (!bulk) throw notFound();
  return bulk;
}

/** Each domain's rows with the state of its registry change and of the change's job. */
const itemRows = (runtime: Runtime, bulkId: number) =>
  runtime.store
    .selectFrom('domain_bulk_item as i')
    .leftJoin('registry_change as c', 'c.id', 'i.change_id')
    .leftJoin('job', 'job.id', 'c.job_id')
    .select([
      'i.id',
      'i.item_id',
      'i.name',
      'i.state',
      'i.message',
      'c.state as change_state',
      'c.message as change_message',
      'job.status as job_status',
    ])
    .where('i.bulk_id', '=', bulkId)
    .orderBy('i.id')
    .execute();

type ItemRow = Awaited<ReturnType<typeof itemRows>>[number];

/** Where one domain stands: its registry change's state once it has one (a job the outbox gave up on is failed). */
function stateOf(row: ItemRow): { state: BulkItemState; message: Message | null } {
  const own = row.message ? (JSON.parse(row.message) as Message) : null;
  if (row.state !== 'queued') return { state: row.state as BulkItemState, message: own };
  if (row.change_state === 'done') return { state: 'done', message: null };
  if (row.change_state === 'failed' || (row.change_state === 'queued' && row.job_status === 'failed'))
    return {
      state: 'failed',
      message: row.change_message ? (JSON.parse(row.change_message) as Message) : { key: 'domain.registry_failed' },
    };
  return { state: 'queued', message: null };
}

/** GET /domain/bulk/{id}/: the batch's progress and each domain's result, translated. */
export async function bulkView(runtime: Runtime, user: SessionUser, bulkId: number, language: Language): Promise<BulkAnswer> {
  const bulk = await bulkOf(runtime, user, bulkId);
  const rows = await itemRows(runtime, bulk.id);
  const counts = { queued: 0, done: 0, failed: 0, skipped: 0 };
  const items = rows.map((row) => {
    const { state, message } = stateOf(row);
    counts[state]++;
    const params = Object.fromEntries(Object.entries(message?.params ?? {}).map(([k, v]) => [k, String(v)]));
    return { id: Number(row.item_id), name: row.name, state, message: message ? translate(language, message.key, params) : '' };
  });
  return { id: bulk.id, action: bulk.action as BulkAction, total: rows.length, counts, items };
}

/**
 * Retries the batch's failed domains from the same screen: each is checked and planned again as
 * if sent now (a renewal from the expiry the domain has now), its row pointing at the new change.
 */
export async function retryBulk(runtime: Runtime, caller: Caller, bulkId: number): Promise<number> {
  const bulk = await bulkOf(runtime, caller.user, bulkId);
  const failed = (await itemRows(runtime, bulk.id)).filter((row) => stateOf(row).state === 'failed');
  if (failed.length === 0) return 0;
  const fields = JSON.parse(bulk.fields) as BulkFields;
  const planned = await plan(
    runtime,
    caller,
    fields,
    failed.map((r) => Number(r.item_id)),
  );
  await runtime.store.transaction().execute((trx) =>
    write(
      trx,
      fields,
      bulk.id,
      caller.user.id,
      planned,
      failed.map((r) => r.id),
    ),
  );
  return failed.length;
}
