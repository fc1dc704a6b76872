import type { BackendState } from '@atalaya/contract';
import { backendState } from '../../kernel/job-state.ts';
import { latestJob } from '../../outbox/history.ts';
import type { Store } from '../../store/db.ts';
import { APPLY_ZONE } from './jobs.ts';

/**
 * Where a zone stands on the DNS server: its latest apply job. A later apply after a failed one
 * sends the whole zone (see the handler), so once it is done nothing of the failure is missing.
 */
export async function zoneBackend(store: Store, itemId: number): Promise<{ state: BackendState; job: number | null }> {
  const job = await latestJob(store, itemId, APPLY_ZONE);
  return { state: backendState(0, job?.status), job: job?.id ?? null };
}
