import type { Kysely, Transaction } from 'kysely';
import { type RegistryDriver, RegistryError, type RegistryMessage } from '../../drivers/registry/interface.ts';
import { emitEvent } from '../../kernel/events.ts';
import type { Schedule } from '../../scheduler.ts';
import { now, type Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { recordActivity } from '../activity/record.ts';
import { settleChange } from './changes.ts';
import { settleTransferNotice } from './transfers.ts';

/** Messages read in one run at most: the rest wait for the next. */
const BATCH = 100;

/** The poll lease's key in `counter` (a row with an end time, which the rate limits use too). */
const LEASE_KEY = 'registry-poll';
/** How long a run may read before another process may take the queue over (its own crash included). */
export const POLL_LEASE_SECONDS = 300;

/**
 * The registry's message queue (RFC 5730 poll), read by one process at a time. The schedule's
 * leader transaction only takes the poll lease; the messages are read once it has committed, so no
 * transaction (and not SQLite's one connection) waits on the registry. A process whose lease is
 * still running is left alone by the others, so two never apply one message. Every message goes
 * to the activity log; a pending action's outcome settles the change that asked for it; a
 * transfer notice is recorded for the domain; a status the registry set refreshes the domain's
 * screens; a message the panel cannot read is kept for the operator (`npm run admin --
 * registry-messages`). Each is acknowledged after it is recorded, so the queue moves and a crash
 * in between reads it again, which changes nothing the second time.
 */
export function registryPollSchedule(store: Store, registry: RegistryDriver, everyMs = 60_000): Schedule {
  return {
    name: 'registry-poll',
    everyMs: registry.pollMessage ? everyMs : 0,
    firstAfterMs: 5_000,
    run: async (trx) => {
      const lease = await takePollLease(trx, now());
      return lease === null ? undefined : () => pollRegistry(store, registry, BATCH, lease);
    },
  };
}

/** Takes the poll lease unless another run holds it; answers when it ends, or null. */
export async function takePollLease(trx: Transaction<Database>, at: number): Promise<number | null> {
  const held = await trx.selectFrom('counter').select('reset_at').where('key', '=', LEASE_KEY).executeTakeFirst();
  if (held && Number(held.reset_at) > at) return null;
  const until = at + POLL_LEASE_SECONDS;
  await trx
    .insertInto('counter')
    .values({ key: LEASE_KEY, hits: 1, reset_at: until })
    .onConflict((oc) => oc.column('key').doUpdateSet({ hits: 1, reset_at: until }))
    .execute();
  return until;
}

/**
 * Reads, applies (each message in a transaction of its own) and acknowledges up to `limit`
 * messages; answers how many. With a lease, it stops reading well before the lease ends, so no
 * other process takes over a queue still being read, and gives the lease back when done.
 */
export async function pollRegistry(store: Store, registry: RegistryDriver, limit = BATCH, lease?: number) {
  if (!registry.pollMessage || !registry.ackMessage) return 0;
  let read = 0;
  try {
    while (read < limit && (lease === undefined || now() < lease - POLL_LEASE_SECONDS / 2)) {
      const message = await registry.pollMessage();
      if (!message) break;
      await store.transaction().execute((trx) => applyMessage(trx, message));
      await registry.ackMessage(message.id);
      read++;
    }
  } finally {
    if (lease !== undefined) await store.deleteFrom('counter').where('key', '=', LEASE_KEY).where('reset_at', '=', lease).execute();
  }
  return read;
}

async function applyMessage(db: Kysely<Database>, message: RegistryMessage) {
  const domain =
    message.kind === 'unknown'
      ? undefined
      : await db
          .selectFrom('domain')
          .innerJoin('item', 'item.id', 'domain.item_id')
          .select(['domain.item_id', 'item.reference', 'item.realm_id'])
          .where('domain.name', '=', message.object.toLowerCase())
          .executeTakeFirst();
  if (message.kind === 'pending' && domain) {
    const change = await db
      .selectFrom('registry_change')
      .select('id')
      .where('item_id', '=', domain.item_id)
      .where('state', '=', 'awaiting')
      .where('transactions', 'like', `%${message.clTRID}%`)
      .executeTakeFirst();
    if (change && message.clTRID) {
      await settleChange(
        db,
        change.id,
        message.applied ? { state: 'done' } : { state: 'failed', refusal: new RegistryError('policy', '', { reason: message.text }) },
      );
    }
  }
  // The outcome of this panel's transfer in, or a domain gone out; a pending one needs nothing kept: its screen asks the registry.
  if (message.kind === 'transfer' && domain && message.state) await settleTransferNotice(db, domain.item_id, message.state);
  if (message.kind === 'unknown') {
    const kept = await db.selectFrom('registry_message').select('id').where('message_id', '=', message.id).executeTakeFirst();
    if (!kept) {
      await db
        .insertInto('registry_message')
        .values({ message_id: message.id, queued_at: message.queuedAt, text: message.text, xml: message.xml, created_at: now() })
        .execute();
    }
  }
  if (message.kind === 'transfer' && domain) {
    await emitEvent(db, 'domain.transferred', {
      name: message.object.toLowerCase(),
      status: message.status,
      requestedBy: message.requestedBy,
      at: now(),
    });
  }
  // Whatever it said about the domain (a status the registry set, a transfer, a pending action),
  // the panel's kept reads of it refresh: the screens read the registry's own view.
  if (domain) await db.updateTable('domain').set({ updated_at: now() }).where('item_id', '=', domain.item_id).execute();
  await recordActivity(db, {
    action: message.kind === 'transfer' ? 'registry.transfer' : 'registry.message',
    actor: 'cli',
    realmId: domain?.realm_id ?? null,
    item: domain ? { id: domain.item_id, reference: domain.reference } : null,
    area: domain ? 'domain' : 'registry',
    detail: {
      message: message.id,
      kind: message.kind,
      text: message.text,
      ...(message.kind === 'pending' ? { applied: message.applied, clTRID: message.clTRID, svTRID: message.svTRID } : {}),
      ...(message.kind === 'transfer' ? { status: message.status, requestedBy: message.requestedBy } : {}),
      ...(message.kind === 'status' ? { statuses: message.statuses.join(' ') } : {}),
    },
  });
}
