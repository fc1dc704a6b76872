import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../http/actor.ts';
import { pathId } from '../../http/ids.ts';
import { requestLanguage } from '../../http/language.ts';
import { route } from '../../http/route.ts';
import { recordActivity } from '../activity/record.ts';
import { bulkView, retryBulk, startBulk } from './bulk.ts';

/**
 * Bulk actions from the domain list. The calls need a session only: each domain is authorised
 * one by one with its single call's area (bulk.ts), and each one's outcome is recorded when its
 * registry change settles; the batch itself is recorded here.
 */
export default async function bulkRoutes(app: FastifyInstance) {
  const runtime = app.runtime;
  const { store } = runtime;
  route(app, endpoints.domain.bulk, async (request) => {
    const caller = { user: request.access.user, authCache: app.authCache };
    const id = await startBulk(runtime, caller, request.body);
    const answer = await bulkView(runtime, caller.user, id, requestLanguage(request));
    await recordActivity(store, {
      ...actorOf(request),
      action: 'domain.bulk',
      detail: { bulk: id, action: request.body.action, total: answer.total, skipped: answer.counts.skipped },
    });
    return { data: answer, info: [{ key: 'domain.bulk_started', params: { count: answer.total - answer.counts.skipped } }] };
  });

  route(app, endpoints.domain.bulkGet, async (request) => ({
    data: await bulkView(runtime, request.access.user, pathId(request.params.bulkId), requestLanguage(request)),
  }));

  route(app, endpoints.domain.bulkRetry, async (request) => {
    const caller = { user: request.access.user, authCache: app.authCache };
    const bulkId = pathId(request.params.bulkId);
    const count = await retryBulk(runtime, caller, bulkId);
    await recordActivity(store, { ...actorOf(request), action: 'domain.bulk_retry', detail: { bulk: bulkId, retried: count } });
    return {
      data: await bulkView(runtime, caller.user, bulkId, requestLanguage(request)),
      info: [{ key: 'domain.bulk_retried', params: { count } }],
    };
  });
}
