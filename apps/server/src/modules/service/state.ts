import type { BackendState } from '@atalaya/contract';
import { type SelectQueryBuilder, sql } from 'kysely';
import { FieldErrors, notFound } from '../../http/errors.ts';
import { pathId } from '../../http/ids.ts';
import { now } from '../../store/db.ts';
import { isUniqueViolation } from '../../store/errors.ts';

/** A row's backend state from the status of the job that last changed it. */
export function backendState(deleting: number, jobStatus: string | null | undefined): BackendState {
  if (deleting) return 'deleting';
  if (jobStatus === 'pending' || jobStatus === 'running') return 'pending';
  if (jobStatus === 'failed') return 'failed';
  return 'ready';
}

/** For `.catch` on an insert: a name another request has just taken (the unique index says so) is that field's 'name taken'. */
export const nameTakenAs = (input: string) => (error: unknown) => {
  throw isUniqueViolation(error) ? FieldErrors.one(input, 'service.name_taken') : error;
};

/**
 * One child row (mail account, alias, FTP user, database) of the service, by its path id, from the
 * area's own list query (`alias` names the child table in it); another service's id, or a row being
 * deleted, is not found.
 */
export async function liveChild<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, alias: string, id: string): Promise<O> {
  const row = await query
    .where(sql.ref(`${alias}.id`), '=', pathId(id))
    .where(sql.ref(`${alias}.deleting`), '=', 0)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row as O;
}

/** How long a node's agent may stay silent (its contact is written every 5 s while connected) before a change for it shows as waiting. */
const NODE_SILENCE_SECONDS = 15;

/** The node a job's row reads with it (`job_node`, `job_node_contact`: `jobNodeColumns` of a query joined to its job). */
interface JobNode {
  job_node?: string | null;
  job_node_contact?: number | null;
}
export const jobNodeColumns = ['job_node.name as job_node', 'job_node.last_contact_at as job_node_contact'] as const;

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
