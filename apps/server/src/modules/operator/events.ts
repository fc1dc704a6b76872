import { DELIVER_WEBHOOK, emitEvent } from '../../kernel/events.ts';
import type { Store } from '../../store/db.ts';
import type { Job } from '../../store/schema.ts';

/**
 * The `job.failed` event: a backend change that will not be retried any more. A failed webhook
 * delivery is not reported, or a receiver that is down would be sent news of its own downtime.
 */
export async function tellJobFailed(store: Store, job: Job) {
  if (job.kind === DELIVER_WEBHOOK) return;
  const item =
    job.item_id === null ? undefined : await store.selectFrom('item').select('reference').where('id', '=', job.item_id).executeTakeFirst();
  await emitEvent(store, 'job.failed', { job: job.id, kind: job.kind, reference: item?.reference ?? null, error: job.last_error });
}
