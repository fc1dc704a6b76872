import { now, type Store } from '../store/db.ts';

/** What an operator sees of the queue: every job not done, oldest first. */
export function listUnfinishedJobs(store: Store, limit = 500) {
  return store
    .selectFrom('job')
    .select(['id', 'kind', 'item_id', 'status', 'attempts', 'next_at', 'lease_until', 'last_error', 'updated_at'])
    .where('status', 'in', ['pending', 'running', 'failed'])
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Puts a failed job back in the queue with its attempts counted from zero (an operator's or a
 * user's retry). Answers false when the job is not failed (done, queued or running already): a
 * retry never runs a job twice at once.
 */
export async function retryFailedJob(store: Store, id: number) {
  const t = now();
  const result = await store
    .updateTable('job')
    .set({ status: 'pending', attempts: 0, next_at: t, lease_until: null, claimed_by: null, updated_at: t })
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
