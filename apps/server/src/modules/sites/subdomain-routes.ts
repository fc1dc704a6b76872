import { endpoints, normaliseFolder, toSiteName } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { FieldErrors } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { now } from '../../store/db.ts';
import { isUniqueViolation } from '../../store/errors.ts';
import { siteOf } from './access.ts';
import { acmeViews } from './acme/present.ts';
import { hostApplies, queued, redirectionCount, removedBackend, siteBackend } from './backend.ts';
import { presentSite } from './present.ts';
import { resolveSsl } from './ssl.ts';
import { enqueueApply, siteKey } from './state.ts';

const folderOf = (input: string) => {
  const folder = normaliseFolder(input);
  if (folder === null) throw FieldErrors.one('folder', 'sites.folder_invalid');
  return folder;
};

/** Subdomains: the sites of a normal hosting service (area service_subdomains). */
export default async function subdomainRoutes(app: FastifyInstance) {
  const { store } = app.runtime;

  route(app, endpoints.sites.list, async (request) => {
    const { access } = request;
    const sites = await store.selectFrom('site').selectAll().where('service_id', '=', access.itemId).orderBy('name').execute();
    const counts = await store
      .selectFrom('redirection')
      .select(['site_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('service_id', '=', access.itemId)
      .groupBy('site_id')
      .execute();
    const countOf = new Map(counts.map((c) => [c.site_id, Number(c.n)]));
    const acme = await acmeViews(request, sites);
    const applies = await hostApplies(store, access.itemId);
    const present = (s: (typeof sites)[number]) =>
      presentSite(s, access.reference, countOf.get(s.id) ?? 0, siteBackend(applies, s.id), acme.get(s.id));
    const removed = removedBackend(
      applies,
      access.itemId,
      sites.map((s) => s.id),
    );
    return { data: { subdomains: sites.map(present), removed } };
  });

  route(app, endpoints.sites.get, async (request) => {
    const { access } = request;
    const site = await siteOf(request, request.params.subId);
    const acme = (await acmeViews(request, [site])).get(site.id);
    const backend = siteBackend(await hostApplies(store, access.itemId), site.id);
    return { data: { subdomain: presentSite(site, access.reference, await redirectionCount(store, site.id), backend, acme) } };
  });

  route(app, endpoints.sites.create, async (request) => {
    const { access } = request;
    const name = toSiteName(request.body.subDomain, access.reference);
    if (!name) throw FieldErrors.one('subDomain', 'sites.name_invalid', { reference: access.reference });
    const folder = folderOf(request.body.folder);
    const taken = await store
      .selectFrom('site')
      .select('id')
      .where('service_id', '=', access.itemId)
      .where('name', '=', name)
      .executeTakeFirst();
    if (taken) throw FieldErrors.one('subDomain', 'validation.duplicate');
    const ssl = resolveSsl(app, `${name}.${access.reference}`, request.body, null);
    const t = now();
    const { site, job } = await store
      .transaction()
      .execute(async (trx) => {
        const site = await trx
          .insertInto('site')
          .values({ service_id: access.itemId, name, folder, ...ssl, created_at: t, updated_at: t })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { site, job: await enqueueApply(trx, access.itemId, siteKey(site.id)) };
      })
      .catch((error) => {
        throw isUniqueViolation(error) ? FieldErrors.one('subDomain', 'validation.duplicate') : error;
      });
    return { data: { subdomain: presentSite(site, access.reference, 0, queued(job)) }, info: [{ key: 'sites.site_created' }], job };
  });

  route(app, endpoints.sites.save, async (request) => {
    const { access } = request;
    const existing = await siteOf(request, request.params.subId);
    const folder = folderOf(request.body.folder);
    const ssl = resolveSsl(app, `${existing.name}.${access.reference}`, request.body, existing);
    const { site, job } = await store.transaction().execute(async (trx) => {
      const site = await trx
        .updateTable('site')
        .set({ folder, ...ssl, updated_at: now() })
        .where('id', '=', existing.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { site, job: await enqueueApply(trx, access.itemId, siteKey(site.id)) };
    });
    const acme = (await acmeViews(request, [site])).get(site.id);
    const data = { subdomain: presentSite(site, access.reference, await redirectionCount(store, site.id), queued(job), acme) };
    return { data, info: [{ key: 'sites.site_saved' }], job };
  });

  route(app, endpoints.sites.delete, async (request) => {
    const { access } = request;
    const site = await siteOf(request, request.params.subId);
    const job = await store.transaction().execute(async (trx) => {
      await trx.deleteFrom('site').where('id', '=', site.id).execute();
      return enqueueApply(trx, access.itemId, siteKey(site.id));
    });
    return { data: { id: site.id }, info: [{ key: 'sites.site_deleted' }], job };
  });
}
