import { endpoints, normaliseFolder, toSiteName } from '@atalaya/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FieldErrors, notFound } from '../../http/errors.ts';
import { pathId } from '../../http/ids.ts';
import { route } from '../../http/route.ts';
import { now } from '../../store/db.ts';
import { isUniqueViolation } from '../../store/errors.ts';
import { type OpenService, openService } from '../permission/open.ts';
import { acmeViews } from './acme/present.ts';
import { hostApplies, queued, removedBackend, siteBackend } from './backend.ts';
import { presentSite } from './present.ts';
import { resolveSsl } from './ssl.ts';
import { enqueueApply, siteKey } from './state.ts';

const folderOf = (input: string) => {
  const folder = normaliseFolder(input);
  if (folder === null) throw FieldErrors.one('folder', 'sites.folder_invalid');
  return folder;
};

/** The site, checked against its service: another service's site answers 404. */
export async function siteOf(request: FastifyRequest, ctx: OpenService, rawId: string) {
  const site = await request.server.store
    .selectFrom('site')
    .selectAll()
    .where('id', '=', pathId(rawId))
    .where('service_id', '=', ctx.access.itemId)
    .executeTakeFirst();
  if (!site) throw notFound();
  return site;
}

export async function redirectionCount(request: FastifyRequest, siteId: number) {
  const row = await request.server.store
    .selectFrom('redirection')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('site_id', '=', siteId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Subdomains: the sites of a normal hosting service (area service_subdomains). */
export function subdomainRoutes(app: FastifyInstance) {
  const { store } = app;

  route(app, endpoints.sites.list, async (request) => {
    const ctx = await openService(request, request.params.id, 'service_subdomains', 'read', { normalOnly: true });
    const sites = await store.selectFrom('site').selectAll().where('service_id', '=', ctx.access.itemId).orderBy('name').execute();
    const counts = await store
      .selectFrom('redirection')
      .select(['site_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('service_id', '=', ctx.access.itemId)
      .groupBy('site_id')
      .execute();
    const countOf = new Map(counts.map((c) => [c.site_id, Number(c.n)]));
    const acme = await acmeViews(request, sites);
    const applies = await hostApplies(store, ctx.access.itemId);
    const present = (s: (typeof sites)[number]) =>
      presentSite(s, ctx.access.reference, countOf.get(s.id) ?? 0, siteBackend(applies, s.id), acme.get(s.id));
    const removed = removedBackend(
      applies,
      ctx.access.itemId,
      sites.map((s) => s.id),
    );
    return { data: { subdomains: sites.map(present), removed } };
  });

  route(app, endpoints.sites.get, async (request) => {
    const ctx = await openService(request, request.params.id, 'service_subdomains', 'read', { normalOnly: true });
    const site = await siteOf(request, ctx, request.params.subId);
    const acme = (await acmeViews(request, [site])).get(site.id);
    const backend = siteBackend(await hostApplies(store, ctx.access.itemId), site.id);
    return { data: { subdomain: presentSite(site, ctx.access.reference, await redirectionCount(request, site.id), backend, acme) } };
  });

  route(app, endpoints.sites.create, async (request) => {
    const ctx = await openService(request, request.params.id, 'service_subdomains', 'write', { normalOnly: true });
    const name = toSiteName(request.body.subDomain, ctx.access.reference);
    if (!name) throw FieldErrors.one('subDomain', 'sites.name_invalid', { reference: ctx.access.reference });
    const folder = folderOf(request.body.folder);
    const taken = await store
      .selectFrom('site')
      .select('id')
      .where('service_id', '=', ctx.access.itemId)
      .where('name', '=', name)
      .executeTakeFirst();
    if (taken) throw FieldErrors.one('subDomain', 'validation.duplicate');
    const ssl = resolveSsl(app, `${name}.${ctx.access.reference}`, request.body, null);
    const t = now();
    const { site, job } = await store
      .transaction()
      .execute(async (trx) => {
        const site = await trx
          .insertInto('site')
          .values({ service_id: ctx.access.itemId, name, folder, ...ssl, created_at: t, updated_at: t })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { site, job: await enqueueApply(trx, ctx.access.itemId, siteKey(site.id)) };
      })
      .catch((error) => {
        throw isUniqueViolation(error) ? FieldErrors.one('subDomain', 'validation.duplicate') : error;
      });
    return { data: { subdomain: presentSite(site, ctx.access.reference, 0, queued(job)) }, info: [{ key: 'sites.site_created' }], job };
  });

  route(app, endpoints.sites.save, async (request) => {
    const ctx = await openService(request, request.params.id, 'service_subdomains', 'write', { normalOnly: true });
    const existing = await siteOf(request, ctx, request.params.subId);
    const folder = folderOf(request.body.folder);
    const ssl = resolveSsl(app, `${existing.name}.${ctx.access.reference}`, request.body, existing);
    const { site, job } = await store.transaction().execute(async (trx) => {
      const site = await trx
        .updateTable('site')
        .set({ folder, ...ssl, updated_at: now() })
        .where('id', '=', existing.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { site, job: await enqueueApply(trx, ctx.access.itemId, siteKey(site.id)) };
    });
    const acme = (await acmeViews(request, [site])).get(site.id);
    const data = { subdomain: presentSite(site, ctx.access.reference, await redirectionCount(request, site.id), queued(job), acme) };
    return { data, info: [{ key: 'sites.site_saved' }], job };
  });

  route(app, endpoints.sites.delete, async (request) => {
    const ctx = await openService(request, request.params.id, 'service_subdomains', 'write', { normalOnly: true });
    const site = await siteOf(request, ctx, request.params.subId);
    const job = await store.transaction().execute(async (trx) => {
      await trx.deleteFrom('site').where('id', '=', site.id).execute();
      return enqueueApply(trx, ctx.access.itemId, siteKey(site.id));
    });
    return { data: { id: site.id }, info: [{ key: 'sites.site_deleted' }], job };
  });
}
