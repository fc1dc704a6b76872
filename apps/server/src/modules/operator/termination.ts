import type { Kysely, Transaction } from 'kysely';
import { emitEvent } from '../../kernel/events.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { enqueue, type JobHandlers } from '../../outbox/outbox.ts';
import type { Schedule } from '../../scheduler.ts';
import { now, type Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { findItem, findRealm } from '../provisioning/accounts.ts';
import { enqueueChild, enqueueWeb } from '../service/jobs.ts';
import { webRootOf } from '../service/web-root.ts';
import { apexKey, siteKey } from '../sites/state.ts';

const DAY = 86_400;
type Db = Kysely<Database> | Transaction<Database>;

/**
 * The steps of an item's termination, one outbox job each, queued together in this order: jobs of
 * one item apply in commit order and each step holds the whole item (decisions 014, 055), so the hosts stop answering before the files and
 * accounts behind them go, and the item's rows are deleted last, only once every backend is clean.
 * The mailboxes, aliases, FTP users and databases in between are the service area's own removal
 * jobs, queued for each row as the customer's delete would queue them.
 */
export const TERMINATE = {
  sites: 'operator.terminate.sites',
  mail: 'operator.terminate.mail',
  dns: 'operator.terminate.dns',
  web: 'operator.terminate.web',
  finish: 'operator.terminate.finish',
} as const;

/** Re-applies the hosts of these items' hosting, so that they show (or stop showing) the suspension page. */
export async function reapplyHosting(trx: Db, itemIds: number[]) {
  if (itemIds.length === 0) return;
  const services = await trx.selectFrom('service').select('item_id').where('item_id', 'in', itemIds).execute();
  for (const s of services) await enqueueWeb(trx, s.item_id);
}

/**
 * Terminates one item after `graceDays`: it is suspended at once (its sites answer the suspension
 * page, its customers see it so) and its backends are cleaned once the day comes. Asked again, it
 * answers the date already set: a retried call never pushes the termination further away.
 */
export async function terminateItem(store: Store, realm: string, reference: string, graceDays: number) {
  const item = await findItem(store, realm, reference);
  if (item.terminate_at !== null) return { name: item.reference, terminateAt: Number(item.terminate_at) };
  const terminateAt = now() + graceDays * DAY;
  await store.transaction().execute(async (trx) => {
    await trx.updateTable('item').set({ suspended: 1, terminate_at: terminateAt }).where('id', '=', item.id).execute();
    if (item.suspended !== 1) {
      await reapplyHosting(trx, [item.id]);
      await emitEvent(trx, 'service.suspended', { realm, reference: item.reference, at: now() });
    }
  });
  return { name: item.reference, terminateAt };
}

/**
 * Terminates a realm after `graceDays`: suspended at once (no sign-in, every site on the
 * suspension page), each of its items terminated on that day, and the realm with its users deleted
 * once the last item is gone. Asked again, it answers the date already set.
 */
export async function terminateRealm(store: Store, name: string, graceDays: number) {
  const realm = await findRealm(store, name);
  if (realm.terminate_at !== null) return { name: realm.name, terminateAt: Number(realm.terminate_at) };
  const terminateAt = now() + graceDays * DAY;
  await store.transaction().execute(async (trx) => {
    await trx.updateTable('realm').set({ suspended: 1, disabled: 1, terminate_at: terminateAt }).where('id', '=', realm.id).execute();
    // An item already due earlier keeps its own date.
    await trx
      .updateTable('item')
      .set({ terminate_at: terminateAt })
      .where('realm_id', '=', realm.id)
      .where((eb) => eb.or([eb('terminate_at', 'is', null), eb('terminate_at', '>', terminateAt)]))
      .execute();
    if (realm.suspended !== 1) {
      const items = await trx.selectFrom('item').select('id').where('realm_id', '=', realm.id).execute();
      await reapplyHosting(
        trx,
        items.map((i) => i.id),
      );
      await emitEvent(trx, 'service.suspended', { realm: realm.name, at: now() });
    }
  });
  return { name: realm.name, terminateAt };
}

/** Unsuspending within the grace period keeps the item (or the realm and its items): the termination is called off. */
export async function cancelTermination(trx: Db, target: { realmId: number } | { itemId: number }) {
  if ('realmId' in target) {
    await trx.updateTable('realm').set({ terminate_at: null }).where('id', '=', target.realmId).execute();
    await trx
      .updateTable('item')
      .set({ terminate_at: null })
      .where('realm_id', '=', target.realmId)
      .where('terminate_job', 'is', null)
      .execute();
  } else {
    await trx.updateTable('item').set({ terminate_at: null }).where('id', '=', target.itemId).where('terminate_job', 'is', null).execute();
  }
}

/** Queues every step of one item's termination, in order, in the caller's transaction; answers the last step's job. */
async function queueTermination(trx: Transaction<Database>, itemId: number) {
  const payload = { itemId };
  await enqueue(trx, TERMINATE.sites, payload, itemId);
  for (const table of ['ftp_user', 'service_database', 'mail_alias', 'mail_account'] as const) {
    const rows = await trx.selectFrom(table).select('id').where('item_id', '=', itemId).execute();
    for (const row of rows) {
      await trx.updateTable(table).set({ deleting: 1 }).where('id', '=', row.id).execute();
      await enqueueChild(trx, table, row.id, itemId);
    }
  }
  await enqueue(trx, TERMINATE.mail, payload, itemId);
  await enqueue(trx, TERMINATE.dns, payload, itemId);
  await enqueue(trx, TERMINATE.web, payload, itemId);
  const finish = await enqueue(trx, TERMINATE.finish, payload, itemId);
  await trx.updateTable('item').set({ terminate_job: finish }).where('id', '=', itemId).execute();
  return finish;
}

/** Queues the termination of every item whose day (or its realm's) has come; answers the items queued. */
export async function queueDueTerminations(trx: Transaction<Database>, at = now()) {
  const due = await trx
    .selectFrom('item')
    .innerJoin('realm', 'realm.id', 'item.realm_id')
    .select('item.id')
    .where('item.terminate_job', 'is', null)
    .where((eb) => eb.or([eb('item.terminate_at', '<=', at), eb('realm.terminate_at', '<=', at)]))
    .orderBy('item.id')
    .execute();
  for (const item of due) await queueTermination(trx, item.id);
  // A terminated realm whose items are all gone (or that never had any) goes with its users.
  const realms = await trx
    .selectFrom('realm')
    .select(['id', 'name'])
    .where('terminate_at', '<=', at)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('item').select('item.id').whereRef('item.realm_id', '=', 'realm.id'))))
    .execute();
  for (const realm of realms) {
    await trx.deleteFrom('realm').where('id', '=', realm.id).execute();
    await emitEvent(trx, 'service.terminated', { realm: realm.name, at });
  }
  return due.map((d) => d.id);
}

/** The terminations as a schedule (runtime.ts's SCHEDULES): every minute, in the leader's transaction. */
export const terminationSchedule = (): Schedule => ({
  name: 'terminations',
  everyMs: 60_000,
  run: (trx) => queueDueTerminations(trx),
});

const itemOf = (payload: unknown) => Number((payload as { itemId?: unknown }).itemId);

/** What is left of a terminated item's hosting on the backends, step by step; each removal is idempotent, so a retry repeats it safely. */
export function terminationJobs(runtime: Runtime): JobHandlers {
  const { store } = runtime;
  const referenceOf = async (itemId: number) =>
    (await store.selectFrom('item').select('reference').where('id', '=', itemId).executeTakeFirst())?.reference;
  return {
    async [TERMINATE.sites](payload) {
      const itemId = itemOf(payload);
      const sites = await store.selectFrom('site').select('id').where('service_id', '=', itemId).execute();
      for (const site of sites) await runtime.drivers.sites.removeSite(siteKey(site.id));
      await runtime.drivers.sites.removeSite(apexKey(itemId));
      await store.deleteFrom('site').where('service_id', '=', itemId).execute();
    },
    async [TERMINATE.mail](payload) {
      const itemId = itemOf(payload);
      const reference = await referenceOf(itemId);
      if (reference === undefined) return;
      // No keys: the signing backend forgets the domain.
      await runtime.drivers.mail.ensureDkim(reference, []);
      await store.deleteFrom('mail_dkim').where('item_id', '=', itemId).execute();
    },
    async [TERMINATE.dns](payload) {
      const itemId = itemOf(payload);
      const reference = await referenceOf(itemId);
      const zone = await store.selectFrom('dns_zone').select('item_id').where('item_id', '=', itemId).executeTakeFirst();
      if (reference === undefined || !zone) return;
      await runtime.drivers.dns.removeZone(reference);
    },
    async [TERMINATE.web](payload) {
      const itemId = itemOf(payload);
      const reference = await referenceOf(itemId);
      const service = await store.selectFrom('service').select('item_id').where('item_id', '=', itemId).executeTakeFirst();
      if (reference === undefined || !service) return;
      await runtime.drivers.web.removeService({ reference, webRoot: webRootOf(runtime.config.hosting.webRoot, reference) });
    },
    /**
     * The item's rows go only when every removal before it succeeded: a mailbox or database whose
     * job failed is still there, so this step fails too (and `job.failed` tells the operator)
     * rather than forget something still on a server.
     */
    async [TERMINATE.finish](payload) {
      const itemId = itemOf(payload);
      const item = await store
        .selectFrom('item')
        .innerJoin('realm', 'realm.id', 'item.realm_id')
        .select(['item.reference', 'realm.name as realm'])
        .where('item.id', '=', itemId)
        .executeTakeFirst();
      if (!item) return;
      for (const table of ['ftp_user', 'service_database', 'mail_alias', 'mail_account', 'site'] as const) {
        const column = table === 'site' ? 'service_id' : 'item_id';
        const left = await store.selectFrom(table).select('id').where(column, '=', itemId).executeTakeFirst();
        if (left) throw new Error(`${table} ${left.id} of ${item.reference} is still on its backend; its removal failed`);
      }
      await store.transaction().execute(async (trx) => {
        await trx.deleteFrom('item').where('id', '=', itemId).execute();
        await emitEvent(trx, 'service.terminated', { realm: item.realm, reference: item.reference, at: now() });
      });
    },
  };
}
