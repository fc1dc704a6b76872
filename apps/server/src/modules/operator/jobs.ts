import { WEBHOOK_EVENT_HEADER, WEBHOOK_SIGNATURE_HEADER } from '@atalaya/contract';
import { DELIVER_WEBHOOK } from '../../kernel/events.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { type JobHandlers, MAX_ATTEMPTS } from '../../outbox/outbox.ts';
import { PermanentJobError } from '../../outbox/permanent.ts';
import { now } from '../../store/db.ts';
import { signatureOf, WEBHOOK_DELIVERY_HEADER } from './webhooks.ts';

/** How much of a receiver's answer the log keeps. */
const ANSWER_KEPT = 500;
/** How much of it is read: the connection is cut after that, whatever the receiver still sends. */
const ANSWER_READ = 4096;
/** A receiver gets this long to answer one attempt. */
const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * The first `limit` bytes of a receiver's answer. The rest is never read: cancelling the body cuts
 * the connection, so an answer without end (issue 44: 700 MB took the panel to 2 GB) costs a few KB.
 */
async function startOf(response: Response, limit: number) {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, limit));
}

/**
 * The URL a delivery is posted to, and the Basic authorization of the user and password it was
 * registered with: fetch refuses a URL that carries them, a receiver expects them as the header.
 */
function deliveryTarget(registered: string) {
  const url = new URL(registered);
  if (!url.username && !url.password) return { url, authorization: null };
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  url.username = '';
  url.password = '';
  return { url, authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
}

/**
 * The operator area's jobs: a webhook delivery. Each attempt is signed afresh (a new timestamp),
 * logged with the receiver's status and answer, and retried by the outbox with its back-off until
 * a 2xx; 410 Gone says the receiver wants no more and ends it.
 */
export function operatorJobs(runtime: Runtime): JobHandlers {
  const { store, secrets } = runtime;
  return {
    async [DELIVER_WEBHOOK](payload, job, _progress, signal) {
      const { deliveryId } = payload as { deliveryId: number };
      const delivery = await store
        .selectFrom('webhook_delivery')
        .innerJoin('webhook_endpoint', 'webhook_endpoint.id', 'webhook_delivery.endpoint_id')
        .select([
          'webhook_delivery.id',
          'webhook_delivery.event',
          'webhook_delivery.body',
          'webhook_endpoint.url',
          'webhook_endpoint.secret',
        ])
        .where('webhook_delivery.id', '=', deliveryId)
        .executeTakeFirst();
      // The endpoint was removed since: nothing is left to deliver to.
      if (!delivery) return;
      const timestamp = now();
      let status: number | null = null;
      let answer = '';
      try {
        const { url, authorization } = deliveryTarget(delivery.url);
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(authorization ? { authorization } : {}),
            [WEBHOOK_SIGNATURE_HEADER]: signatureOf(secrets.decrypt(delivery.secret), timestamp, delivery.body),
            [WEBHOOK_EVENT_HEADER]: delivery.event,
            [WEBHOOK_DELIVERY_HEADER]: String(delivery.id),
          },
          body: delivery.body,
          redirect: 'manual',
          signal: AbortSignal.any([signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
        });
        status = response.status;
        answer = (await startOf(response, ANSWER_READ)).slice(0, ANSWER_KEPT);
      } catch (error) {
        answer = String((error as Error).message ?? error).slice(0, ANSWER_KEPT);
      }
      const delivered = status !== null && status >= 200 && status < 300;
      const lastTry = job.attempts + 1 >= MAX_ATTEMPTS || status === 410;
      await store.transaction().execute(async (trx) => {
        await trx.insertInto('webhook_attempt').values({ delivery_id: delivery.id, at: timestamp, http_status: status, answer }).execute();
        if (delivered || lastTry) {
          await trx
            .updateTable('webhook_delivery')
            .set({ status: delivered ? 'delivered' : 'failed' })
            .where('id', '=', delivery.id)
            .execute();
        }
      });
      if (delivered) return;
      const reason = status === null ? `the receiver could not be reached: ${answer}` : `the receiver answered ${status}`;
      if (status === 410) throw new PermanentJobError(reason);
      throw new Error(reason);
    },
  };
}
