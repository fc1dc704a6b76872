import { type Area, endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError, notFound } from '../../http/errors.ts';
import { pathId } from '../../http/ids.ts';
import { route } from '../../http/route.ts';
import { retryFailedJob } from '../../outbox/queue.ts';
import type { Runtime } from '../../runtime.ts';
import { APPLY_ZONE } from '../dns/jobs.ts';
import { openItem } from '../permission/open.ts';
import { APPLY_JOB } from '../sites/state.ts';
import { JOB } from './jobs.ts';

/**
 * Who may retry a failed change: write on the area whose rows the job applies (any one of them).
 * A host's apply follows its site's changes and its redirections' alike; a zone's, its records'.
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
 * POST /service/{id}/job/{jobId}/retry/: a user retries the failed change of a row they may write
 * (the row shows "failed to apply" with a retry button): a service's row, one of its sites or its
 * DNS zone. The job must belong to that item and be of a kind listed above; anything else is not found. A job that is not failed is refused.
 */
export const retryRoutes = (_runtime: Runtime) => async (app: FastifyInstance) => {
  route(app, endpoints.service.jobRetry, async (request) => {
    const itemId = pathId(request.params.id);
    const jobId = pathId(request.params.jobId);
    const job = await app.store.selectFrom('job').select(['id', 'kind', 'item_id']).where('id', '=', jobId).executeTakeFirst();
    const areas = job && job.item_id === itemId ? RETRY_AREAS[job.kind] : undefined;
    if (!job || !areas) throw notFound();
    let lastError: unknown;
    let allowed = false;
    for (const area of areas) {
      try {
        await openItem(request, request.params.id, area, 'write');
        allowed = true;
        break;
      } catch (error) {
        lastError = error;
      }
    }
    if (!allowed) throw lastError;
    if (!(await retryFailedJob(app.store, job.id))) throw new ApiError(409, 'service.retry_not_failed');
    return { data: null, info: [{ key: 'service.retry_queued' }], job: job.id };
  });
};
