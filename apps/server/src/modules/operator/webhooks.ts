import { createHmac, randomBytes } from 'node:crypto';
import type { WebhookEvent } from '@atalaya/contract';
import { DELIVER_WEBHOOK } from '../../kernel/events.ts';
import { enqueue } from '../../outbox/outbox.ts';
import type { Secrets } from '../../secrets.ts';
import { now, type Store } from '../../store/db.ts';

export const WEBHOOK_DELIVERY_HEADER = 'atalaya-delivery';

/**
 * The signature of a delivery (decision 037): HMAC-SHA256 under the endpoint's secret over
 * "<unix seconds>.<exact body>", sent as `t=<seconds>,v1=<hex>`. The timestamp inside the signed
 * text lets a receiver refuse an old delivery replayed by whoever recorded it.
 */
export function signatureOf(secret: string, timestamp: number, body: string) {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * A webhook URL as it is shown back (the operator API's list, the CLI): a user and password in it
 * are the receiver's credentials, kept to deliver with and never answered.
 */
export function shownUrl(url: string) {
  const parsed = URL.parse(url);
  if (!parsed || (!parsed.username && !parsed.password)) return url;
  parsed.username = parsed.username && '***';
  parsed.password = parsed.password && '***';
  return parsed.href;
}

const viewOf = (row: { id: number; url: string; events: string; created_at: number }) => ({
  id: row.id,
  url: shownUrl(row.url),
  events: JSON.parse(row.events) as string[],
  createdAt: Number(row.created_at),
});

/** Registers an endpoint for some events; answers it with its signing secret, shown this once. */
export async function createWebhook(store: Store, secrets: Secrets, spec: { url: string; events: readonly WebhookEvent[] }) {
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const row = await store
    .insertInto('webhook_endpoint')
    .values({ url: spec.url, events: JSON.stringify([...new Set(spec.events)]), secret: secrets.encrypt(secret), created_at: now() })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...viewOf(row), secret };
}

export async function listWebhooks(store: Store) {
  return (await store.selectFrom('webhook_endpoint').selectAll().orderBy('id').execute()).map(viewOf);
}

/** Removes an endpoint and its deliveries; false when there is none with that id. */
export async function deleteWebhook(store: Store, id: number) {
  const result = await store.deleteFrom('webhook_endpoint').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Queues a delivery again (the CLI's `webhooks resend`): a new series of attempts, logged after the old ones. */
export async function resendDelivery(store: Store, id: number) {
  return store.transaction().execute(async (trx) => {
    const updated = await trx.updateTable('webhook_delivery').set({ status: 'pending' }).where('id', '=', id).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return false;
    await enqueue(trx, DELIVER_WEBHOOK, { deliveryId: id });
    return true;
  });
}

/** The deliveries, newest first, each with its attempts (what `npm run admin -- webhooks` prints). */
export async function deliveryLog(store: Store, limit = 50) {
  const deliveries = await store
    .selectFrom('webhook_delivery')
    .innerJoin('webhook_endpoint', 'webhook_endpoint.id', 'webhook_delivery.endpoint_id')
    .select([
      'webhook_delivery.id',
      'webhook_delivery.event',
      'webhook_delivery.status',
      'webhook_delivery.created_at',
      'webhook_endpoint.url',
    ])
    .orderBy('webhook_delivery.id', 'desc')
    .limit(limit)
    .execute();
  const ids = deliveries.map((d) => d.id);
  const attempts = ids.length
    ? await store.selectFrom('webhook_attempt').selectAll().where('delivery_id', 'in', ids).orderBy('id').execute()
    : [];
  return deliveries.map((d) => ({
    ...d,
    url: shownUrl(d.url),
    attempts: attempts
      .filter((a) => a.delivery_id === d.id)
      .map((a) => ({ at: Number(a.at), httpStatus: a.http_status, answer: a.answer })),
  }));
}
