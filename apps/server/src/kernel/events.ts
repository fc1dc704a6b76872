import type { WebhookEvent } from '@atalaya/contract';
import type { Kysely } from 'kysely';
import { enqueue } from '../outbox/outbox.ts';
import { now } from '../store/db.ts';
import type { Database } from '../store/schema.ts';

// Event emission lives under the areas: a domain renewed, a service over its quota or a certificate
// renewed is told from the area where it happens, and only the operator area delivers it.

export const DELIVER_WEBHOOK = 'operator.webhook.deliver';

/**
 * Writes one delivery per endpoint that asked for the event, each an outbox job, in the caller's
 * transaction: the event and the change it reports commit together or not at all.
 */
export async function emitEvent(db: Kysely<Database>, event: WebhookEvent, data: Record<string, unknown>) {
  const endpoints = await db.selectFrom('webhook_endpoint').select(['id', 'events']).orderBy('id').execute();
  for (const endpoint of endpoints) {
    if (!(JSON.parse(endpoint.events) as string[]).includes(event)) continue;
    const delivery = await db
      .insertInto('webhook_delivery')
      .values({ endpoint_id: endpoint.id, event, body: JSON.stringify({ event, data }), created_at: now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await enqueue(db, DELIVER_WEBHOOK, { deliveryId: delivery.id });
  }
}
