import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { retryFailedJob } from '../../outbox/queue.ts';
import { touchChangeOfJob } from '../domain/changes.ts';
import { retryableJob } from './access.ts';

/**
 * POST /service/{id}/job/{jobId}/retry/: a user retries the failed change of a row they may write
 * (the row shows "failed to apply" with a retry button): a service's row, one of its sites, its
 * DNS zone or a domain's registry change. A job that is not failed is refused.
 */
export default async function retryRoutes(app: FastifyInstance) {
  const { store } = app.runtime;
  route(app, endpoints.service.jobRetry, async (request) => {
    const job = await retryableJob(request);
    if (!(await retryFailedJob(store, job.id))) throw new ApiError(409, 'service.retry_not_failed');
    await touchChangeOfJob(store, job);
    return { data: null, info: [{ key: 'service.retry_queued' }], job: job.id };
  });
}
