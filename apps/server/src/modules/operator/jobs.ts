import { WEBHOOK_EVENT_HEADER, WEBHOOK_SIGNATURE_HEADER } from '@atalaya/contract';
import { DELIVER_WEBHOOK } from '../../kernel/events.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { type JobHandlers, MAX_ATTEMPTS } from '../../outbox/outbox.ts';
import { PermanentJobError } from '../../outbox/permanent.ts';
import { now } from '../../store/db.ts';
import { signatureOf, WEBHOOK_DELIVERY_HEADER } from './webhooks.ts';

/** How much of a receiver's answer the log keeps. */
const ANSWER_KEPT = 500;
/** A receiver gets this long to answer one attempt. */
const DELIVERY_TIMEOUT_MS = 10_000;

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
        const response = await fetch(delivery.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            [WEBHOOK_SIGNATURE_HEADER]: signatureOf(secrets.decrypt(delivery.secret), timestamp, delivery.body),
            [WEBHOOK_EVENT_HEADER]: delivery.event,
            [WEBHOOK_DELIVERY_HEADER]: String(delivery.id),
          },
          body: delivery.body,
          redirect: 'manual',
          signal: AbortSignal.any([signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
        });
        status = response.status;
        answer = (await response.text()).slice(0, ANSWER_KEPT);
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
