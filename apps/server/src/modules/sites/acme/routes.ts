import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { FieldErrors } from '../../../http/errors.ts';
import { route } from '../../../http/route.ts';
import { enqueue } from '../../../outbox/outbox.ts';
import { now } from '../../../store/db.ts';
import { siteOf } from '../access.ts';
import { hostApplies, redirectionCount, siteBackend } from '../backend.ts';
import { presentSite } from '../present.ts';
import { ISSUE_JOB } from './issue.ts';
import { acmeViews } from './present.ts';

/** The free-certificate switch of a site's SSL dialog (decision 019). */
export default async function acmeRoutes(app: FastifyInstance) {
  const { store } = app.runtime;

  route(app, endpoints.sites.acme, async (request) => {
    const { access } = request;
    const existing = await siteOf(request, request.params.subId);
    const { active, wildcard } = request.body;
    let job: number | undefined;
    if (!active) {
      // The certificate stays served until replaced; only its renewal stops.
      await store.updateTable('site').set({ acme_enabled: 0, updated_at: now() }).where('id', '=', existing.id).execute();
    } else {
      if (existing.acme_job_id !== null) {
        const running = await store.selectFrom('job').select('status').where('id', '=', existing.acme_job_id).executeTakeFirst();
        if (running && (running.status === 'pending' || running.status === 'running')) throw FieldErrors.one('active', 'sites.acme_busy');
      }
      if (wildcard) {
        const zone = await store.selectFrom('dns_zone').select('item_id').where('item_id', '=', access.itemId).executeTakeFirst();
        if (!zone) throw FieldErrors.one('wildcard', 'sites.acme_wildcard_zone', { reference: access.reference });
      }
      job = await store.transaction().execute(async (trx) => {
        const id = await enqueue(trx, ISSUE_JOB, { siteId: existing.id }, access.itemId);
        await trx
          .updateTable('site')
          .set({ acme_enabled: 1, acme_wildcard: wildcard ? 1 : 0, acme_job_id: id, acme_error: null, updated_at: now() })
          .where('id', '=', existing.id)
          .execute();
        return id;
      });
    }
    const site = await store.selectFrom('site').selectAll().where('id', '=', existing.id).executeTakeFirstOrThrow();
    const acme = (await acmeViews(request, [site])).get(site.id);
    const backend = siteBackend(await hostApplies(store, access.itemId), site.id);
    const subdomain = presentSite(site, access.reference, await redirectionCount(store, site.id), backend, acme);
    return { data: { subdomain }, info: [{ key: active ? 'sites.acme_started' : 'sites.acme_stopped' }], job };
  });
}
