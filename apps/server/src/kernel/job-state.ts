import type { BackendState } from '@atalaya/contract';
import type { SelectQueryBuilder } from 'kysely';
import { now } from '../store/db.ts';
import type { Database } from '../store/schema.ts';

// What a row shows of the job that last changed it and of the node that job waits for: every area
// with backend rows (service, sites, DNS) answers the same states the same way.

/** A row's backend state from the status of the job that last changed it. */
export function backendState(deleting: number, jobStatus: string | null | undefined): BackendState {
  if (deleting) return 'deleting';
  if (jobStatus === 'pending' || jobStatus === 'running') return 'pending';
  if (jobStatus === 'failed') return 'failed';
  return 'ready';
}

/** How long a node's agent may stay silent (its contact is written every 5 s while connected) before a change for it shows as waiting. */
const NODE_SILENCE_SECONDS = 15;

/** The node a job's row reads with it (`job_node`, `job_node_contact`: what `withJobNode` adds to a query joined to its job). */
export interface JobNode {
  job_node?: string | null;
  job_node_contact?: number | null;
}

/**
 * A query that has joined `job` reads the node that job applies on, as `waitingFor` wants it
 * (`query.$call(withJobNode)`). Kysely cannot type a join on a generic query, so the one cast
 * lives here and the answer names the two columns it adds.
 */
export function withJobNode<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O> & ('job' extends TB ? unknown : never),
): SelectQueryBuilder<DB, TB, O & { job_node: string | null; job_node_contact: number | null }> {
  return (query as unknown as SelectQueryBuilder<Database, 'job', O>)
    .leftJoin('node as job_node', 'job_node.id', 'job.node_id')
    .select(['job_node.name as job_node', 'job_node.last_contact_at as job_node_contact']) as never;
}

/** The node a pending change waits for because its agent is not connected (decision 040), or nothing. */
export function waitingFor(jobStatus: string | null | undefined, node: JobNode): { waitingFor?: string } {
  if ((jobStatus !== 'pending' && jobStatus !== 'running') || !node.job_node) return {};
  const silent = node.job_node_contact == null || Number(node.job_node_contact) < now() - NODE_SILENCE_SECONDS;
  return silent ? { waitingFor: node.job_node } : {};
}

/** What every child row shows of its backend: whether it may be deleted, its state, the job that last changed it, the node it waits for. */
export const backendFields = (row: { deleting: number; job_id: number | null; job_status: string | null } & JobNode) => ({
  eliminable: !row.deleting,
  state: backendState(row.deleting, row.job_status),
  job: row.job_id,
  ...waitingFor(row.job_status, row),
});
