import type { Kysely } from 'kysely';
import { type RegistryDriver, RegistryError, type RegistryMessage } from '../../drivers/registry/interface.ts';
import type { Schedule } from '../../scheduler.ts';
import { now } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { recordActivity } from '../activity/record.ts';
import { emitEvent } from '../operator/webhooks.ts';
import { settleChange } from './changes.ts';
import { settleTransferNotice } from './transfers.ts';

/** Messages read in one run at most: the rest wait for the next, so one run never holds the lock for long. */
const BATCH = 100;

/**
 * The registry's message queue (RFC 5730 poll), read by one process at a time: the run holds the
 * schedule's leader lock for as long as it reads, applies and acknowledges, so two processes never
 * apply one message. Every message goes to the activity log; a pending action's outcome settles
 * the change that asked for it; a transfer notice is recorded for the domain; a message the panel
 * cannot read is kept for the operator (`npm run admin -- registry-messages`). Each is acknowledged
 * after it is recorded, so the queue moves and a crash in between reads it again, which changes
 * nothing the second time.
 */
export function registryPollSchedule(registry: RegistryDriver, everyMs = 60_000): Schedule {
  return {
    name: 'registry-poll',
    everyMs: registry.pollMessage ? everyMs : 0,
    firstAfterMs: 5_000,
    run: (trx) => pollRegistry(trx, registry),
  };
}

/** Reads, applies and acknowledges up to BATCH messages; answers how many. */
export async function pollRegistry(db: Kysely<Database>, registry: RegistryDriver, limit = BATCH) {
  if (!registry.pollMessage || !registry.ackMessage) return 0;
  let read = 0;
  while (read < limit) {
    const message = await registry.pollMessage();
    if (!message) break;
    await applyMessage(db, message);
    await registry.ackMessage(message.id);
    read++;
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
    },
  });
}
