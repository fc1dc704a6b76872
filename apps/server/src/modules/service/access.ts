import type { Area } from '@atalaya/contract';
import { notFound } from '../../http/errors.ts';
import { pathId } from '../../http/ids.ts';
import { APPLY_ZONE } from '../dns/jobs.ts';
import { REGISTRY_CHANGE } from '../domain/changes.ts';
import { changeArea } from '../domain/view.ts';
import { type ItemRequest, narrowTo } from '../permission/access.ts';
import { APPLY_JOB } from '../sites/state.ts';
import { JOB } from './jobs.ts';

/**
 * Who may retry a failed change: write on the area whose rows the job applies (any one of them).
 * A host's apply follows its site's changes and its redirections' alike; a zone's, its records';
 * a registry change's, the area of the domain route that queued it (`changeArea`).
 */
const RETRY_AREAS: Record<string, Area[]> = {
  [JOB.mailbox]: ['servicemail_accounts'],
  [JOB.alias]: ['servicemail_alias'],
  [JOB.ftp]: ['service_ftp'],
  [JOB.database]: ['service_ddbb'],
  [JOB.web]: ['service', 'service_parking'],
  [APPLY_JOB]: ['service_subdomains', 'service_redirects'],
  [APPLY_ZONE]: ['service_dnszone'],
};

/**
 * The job of /service/{id}/job/{jobId}/retry/: it must belong to the path's item and be of a kind
 * listed above (anything else is not found), and the caller must write one of its areas.
 */
export async function retryableJob(request: ItemRequest & { params: { jobId: string } }) {
  const jobId = pathId(request.params.jobId);
  const job = await request.server.runtime.store
    .selectFrom('job')
    .select(['id', 'kind', 'item_id'])
    .where('id', '=', jobId)
    .executeTakeFirst();
  const areas = job && job.item_id === request.access.itemId ? await areasOf(request, job) : undefined;
  if (!job || !areas) throw notFound();
  narrowTo(request, areas, 'write');
  return job;
}

async function areasOf(request: ItemRequest, job: { id: number; kind: string }): Promise<Area[] | undefined> {
  if (job.kind !== REGISTRY_CHANGE) return RETRY_AREAS[job.kind];
  const change = await request.server.runtime.store
    .selectFrom('registry_change')
    .select(['action', 'payload'])
    .where('job_id', '=', job.id)
    .executeTakeFirst();
  return change && [changeArea(change.action, JSON.parse(change.payload))];
}
