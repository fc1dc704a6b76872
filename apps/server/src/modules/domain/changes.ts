import { type Language, translate } from '@atalaya/contract';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { type DomainInfo, RegistryError, type RegistryErrorCode } from '../../drivers/registry/interface.ts';
import { type RegistryTransaction, traceRegistry } from '../../drivers/registry/trace.ts';
import { ApiError } from '../../http/errors.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { enqueue, type JobHandlers } from '../../outbox/outbox.ts';
import { PermanentJobError } from '../../outbox/permanent.ts';
import { now, type Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { recordActivity } from '../activity/record.ts';
import { type ActionSettle, REGISTRY_ACTIONS } from './actions.ts';
import { refusalMessage } from './refusals.ts';
import { changeArea, type OpenChange } from './view.ts';

/** The one job kind every registry change runs as; its payload is the change's id only. */
export const REGISTRY_CHANGE = 'registry.change';

/** queued → awaiting (the registry answered 1001) → done | failed. */
export type ChangeState = 'queued' | 'awaiting' | 'done' | 'failed';

/**
 * Queues a registry change in the caller's transaction: the change row (what the customer asked,
 * which the domain screens show as pending) and its outbox job commit together or not at all. The
 * outbox applies one item's registry jobs in commit order (their lane), so one domain's changes reach the registry in
 * the order they were made.
 */
export async function queueRegistryChange(
  trx: Kysely<Database>,
  change: { itemId: number; action: string; payload: unknown; userId?: number | null },
) {
  if (!REGISTRY_ACTIONS[change.action]) throw new Error(`unknown registry action ${change.action}`);
  const t = now();
  const row = await trx
    .insertInto('registry_change')
    .values({
      item_id: change.itemId,
      action: change.action,
      payload: JSON.stringify(change.payload),
      state: 'queued',
      result: null,
      user_id: change.userId ?? null,
      job_id: null,
      created_at: t,
      updated_at: t,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const job = await enqueue(trx, REGISTRY_CHANGE, { changeId: row.id }, change.itemId, { on: 'panel' });
  await trx.updateTable('registry_change').set({ job_id: job }).where('id', '=', row.id).execute();
  return row.id;
}

/** Settles a change and records it, with its registry transactions, in the activity log. */
export async function settleChange(
  db: Kysely<Database>,
  id: number,
  outcome: { state: ChangeState; transactions?: RegistryTransaction[]; refusal?: RegistryError; message?: string },
) {
  const change = await db.selectFrom('registry_change').selectAll().where('id', '=', id).executeTakeFirst();
  if (!change) return;
  const transactions = [...JSON.parse(change.transactions), ...(outcome.transactions ?? [])] as RegistryTransaction[];
  const last = transactions.at(-1);
  // The refusal's code and subject go with its words, so a call waiting on the change answers it as the registry's own refusal.
  const message = outcome.refusal
    ? { ...refusalMessage(outcome.refusal), code: outcome.refusal.code, subject: outcome.refusal.subject }
    : null;
  await db
    .updateTable('registry_change')
    .set({
      state: outcome.state,
      reason: outcome.refusal?.reason ?? outcome.message ?? '',
      message: message ? JSON.stringify(message) : '',
      result: outcome.refusal?.result ?? last?.result ?? null,
      transactions: JSON.stringify(transactions),
      updated_at: now(),
    })
    .where('id', '=', id)
    .execute();
  const item = await db.selectFrom('item').select(['id', 'reference', 'realm_id']).where('id', '=', change.item_id).executeTakeFirst();
  await recordActivity(db, {
    action: `registry.${change.action}`,
    outcome: outcome.state === 'done' ? 'success' : outcome.state === 'awaiting' ? 'pending' : 'failure',
    realmId: item?.realm_id ?? null,
    userId: change.user_id,
    actor: 'cli',
    item: item ? { id: item.id, reference: item.reference } : null,
    area: 'domain',
    detail: {
      change: id,
      clTRID: transactions.map((t) => t.clTRID).join(' '),
      svTRID: transactions.map((t) => t.svTRID).join(' '),
      ...(outcome.refusal || outcome.message ? { reason: outcome.refusal?.reason || outcome.refusal?.code || outcome.message || '' } : {}),
    },
  });
}

/**
 * The handler of every registry change: runs the change's action through the registry driver and
 * settles the row. A refusal (2304, 2305, 2306…) ends the change failed with the registry's
 * reason; nothing else is kept of it, since the domain screens read the registry's own view,
 * so the panel shows the registry's truth again at once. A 1001 leaves it awaiting the poll queue.
 * Anything else (a lost connection, 2400, a 2500 after retries) is thrown: the outbox retries it
 * with back-off, and the driver never repeats a change whose answer was lost without asking.
 */
export function registryJobs({ store, drivers, secrets }: Runtime): JobHandlers {
  return {
    [REGISTRY_CHANGE]: async (raw) => {
      const { changeId } = raw as { changeId: number };
      const change = await store.selectFrom('registry_change').selectAll().where('id', '=', changeId).executeTakeFirst();
      // Settled by an earlier run of this job (a crash after the answer): nothing left to do.
      if (change?.state !== 'queued') return;
      const apply = REGISTRY_ACTIONS[change.action];
      if (!apply) throw new PermanentJobError(`unknown registry action ${change.action}`);
      const transactions: RegistryTransaction[] = [];
      let settled: ActionSettle | undefined;
      try {
        const { value } = await traceRegistry(
          () => apply(drivers.registry, change.item_id, JSON.parse(change.payload) as never, { store, secrets }),
          transactions,
        );
        settled = value ?? undefined;
      } catch (error) {
        if (!(error instanceof RegistryError)) throw error;
        await store.transaction().execute((trx) => settleChange(trx, changeId, { state: 'failed', transactions, refusal: error }));
        await touchDomain(store, change.item_id);
        return;
      }
      const state = transactions.some((t) => t.pending) ? 'awaiting' : 'done';
      // What the panel records of an applied change (a renewal's ledger line and expiry) commits with
      // the change's settling or not at all: a crash before it leaves the change queued, and the
      // job's next run finds the change made at the registry and records it then.
      await store.transaction().execute(async (trx) => {
        await settleChange(trx, changeId, { state, transactions });
        if (state === 'done') await settled?.(trx);
      });
    },
  };
}

/**
 * The change a registry job runs is touched when the outbox gives up on the job or a user retries
 * it: the job's status is part of what the domain screen shows, and only the change row's trigger
 * moves `auth_version`, which the kept domain answers follow.
 */
export async function touchChangeOfJob(store: Store, job: { id: number; kind: string }) {
  if (job.kind !== REGISTRY_CHANGE) return;
  await store.updateTable('registry_change').set({ updated_at: now() }).where('job_id', '=', job.id).execute();
}

/** The domain's cached reads refresh (its row's trigger moves auth_version). */
const touchDomain = (store: Store, itemId: number) =>
  store.updateTable('domain').set({ updated_at: now() }).where('item_id', '=', itemId).execute();

/**
 * The domain's changes that are not done, as its screens show them: the latest change of each
 * action, when it is still pending (queued or awaiting the registry) or failed. A change whose job
 * the outbox gave up on shows failed with the job's error.
 */
export async function openChanges(store: Store, itemId: number, language: Language): Promise<OpenChange[]> {
  const rows = await store
    .selectFrom('registry_change as c')
    .leftJoin('job', 'job.id', 'c.job_id')
    .select(['c.id', 'c.action', 'c.payload', 'c.state', 'c.message', 'c.job_id', 'job.status as job_status'])
    .where('c.item_id', '=', itemId)
    .orderBy('c.id', 'desc')
    .limit(50)
    .execute();
  const seen = new Set<string>();
  const open: OpenChange[] = [];
  for (const row of rows) {
    if (seen.has(row.action)) continue;
    seen.add(row.action);
    const givenUp = row.state === 'queued' && row.job_status === 'failed';
    const failed = row.state === 'failed' || givenUp;
    if (row.state === 'done') continue;
    const message = row.message ? (JSON.parse(row.message) as { key: string; params: Record<string, string> }) : null;
    open.push({
      id: row.id,
      action: row.action,
      state: failed ? 'failed' : 'pending',
      message: failed ? (message ? translate(language, message.key, message.params) : translate(language, 'domain.registry_failed')) : '',
      job: givenUp ? row.job_id : null,
      area: changeArea(row.action, JSON.parse(row.payload)),
    });
  }
  return open.reverse();
}

/**
 * A route's change: the checks the panel can make itself have answered already (400 under the
 * field, 409 on a blocked domain); this queues the rest for the registry, by the calling user.
 */
export function queueFromRequest(request: FastifyRequest, itemId: number, action: string, payload: unknown) {
  return request.server.runtime.store
    .transaction()
    .execute((trx) => queueRegistryChange(trx, { itemId, action, payload, userId: request.user?.id ?? null }));
}

/** Every change but lifting the block itself is refused on a blocked domain, before it is queued. */
export function refuseBlocked(info: DomainInfo) {
  if (info.statuses.includes('clientUpdateProhibited')) throw new ApiError(409, 'domain.blocked');
}

/** A change as a waiting call sees it: applied, or not yet (still queued, or awaiting the registry's poll queue). */
export type Waited = 'done' | 'pending';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits for the job of a change the caller just queued, up to `seconds`, for the calls whose user
 * waits for the registry's answer (a renewal, a restore, a new auth code): the outbox's worker
 * applies it as it does every change, never the request. A refusal is thrown as the registry's
 * (`viaRegistry` words it), a job the outbox gave up on as `domain.registry_failed`; past the
 * time, or awaiting the registry's poll queue, the change is pending, as the domain screen shows it.
 */
export async function awaitChange(store: Store, changeId: number, seconds: number): Promise<Waited> {
  // The monotonic clock: the wait is bounded whatever the wall clock does.
  const until = performance.now() + seconds * 1000;
  for (let pause = 20; ; pause = Math.min(pause * 2, 250)) {
    const row = await store
      .selectFrom('registry_change as c')
      .leftJoin('job', 'job.id', 'c.job_id')
      .select(['c.state', 'c.reason', 'c.message', 'c.result', 'job.status as job_status'])
      .where('c.id', '=', changeId)
      .executeTakeFirstOrThrow();
    if (row.state === 'done') return 'done';
    if (row.state === 'failed') throw refusalOf(row);
    if (row.job_status === 'failed') throw new ApiError(409, 'domain.registry_failed');
    if (row.state === 'awaiting' || performance.now() >= until) return 'pending';
    await sleep(Math.min(pause, Math.max(0, until - performance.now())));
  }
}

/** The refusal a failed change keeps, as the RegistryError the registry answered. */
function refusalOf(row: { reason: string; message: string; result: number | null }) {
  const kept = row.message ? (JSON.parse(row.message) as { code?: RegistryErrorCode; subject?: string }) : {};
  return new RegistryError(kept.code ?? 'policy', kept.subject ?? '', { reason: row.reason, result: row.result ?? undefined });
}
