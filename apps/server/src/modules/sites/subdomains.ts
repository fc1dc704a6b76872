import { normaliseFolder, subdomainCreateSchema, subdomainSaveSchema, toSiteName } from '@atalaya/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FieldErrors, notFound } from '../../http/errors.ts';
import { now } from '../../store/db.ts';
import { type ServiceContext, serviceFor } from './context.ts';
import { isUniqueViolation } from '../../store/errors.ts';
import { presentSite } from './present.ts';
import { resolveSsl } from './ssl.ts';
import { enqueueApply, siteKey } from './state.ts';
import { pathId } from '../../http/ids.ts';

const params = { params: z.object({ id: z.string(), subId: z.string() }) };
const serviceParams = { params: z.object({ id: z.string() }) };

const folderOf = (input: string) => {
  const folder = normaliseFolder(input);
  if (folder === null) throw FieldErrors.one('folder', 'sites.folder_invalid');
  return folder;
};

/** The site, checked against its service: another service's site answers 404. */
async function siteOf(request: FastifyRequest, ctx: ServiceContext, rawId: string) {
  const site = await request.server.store
    .selectFrom('site')
    .selectAll()
    .where('id', '=', pathId(rawId))
    .where('service_id', '=', ctx.service.id)
    .executeTakeFirst();
  if (!site) throw notFound();
  return site;
}

async function redirectionCount(request: FastifyRequest, siteId: number) {
  const row = await request.server.store
    .selectFrom('redirection')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('site_id', '=', siteId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** §7 Subdomains: the sites of a normal hosting service (area service_subdomains). */
export function subdomainRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { store } = app;

  app.get('/service/:id/subdomain/list/', { schema: serviceParams }, async (request) => {
    const ctx = await serviceFor(request, request.params.id, 'service_subdomains', 'read', { normalOnly: true });
    const sites = await store.selectFrom('site').selectAll().where('service_id', '=', ctx.service.id).orderBy('name').execute();
    const counts = await store
      .selectFrom('redirection')
      .select(['site_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('service_id', '=', ctx.service.id)
      .groupBy('site_id')
      .execute();
    const countOf = new Map(counts.map((c) => [c.site_id, Number(c.n)]));
    return { data: { subdomains: sites.map((s) => presentSite(s, ctx.service.reference, countOf.get(s.id) ?? 0)) } };
  });

  app.get('/service/:id/subdomain/:subId/', { schema: params }, async (request) => {
    const ctx = await serviceFor(request, request.params.id, 'service_subdomains', 'read', { normalOnly: true });
    const site = await siteOf(request, ctx, request.params.subId);
    return { data: { subdomain: presentSite(site, ctx.service.reference, await redirectionCount(request, site.id)) } };
  });

  app.post('/service/:id/subdomain/create/', { schema: { ...serviceParams, body: subdomainCreateSchema } }, async (request) => {
    const ctx = await serviceFor(request, request.params.id, 'service_subdomains', 'write', { normalOnly: true });
    const name = toSiteName(request.body.subDomain, ctx.service.reference);
    if (!name) throw FieldErrors.one('subDomain', 'sites.name_invalid', { reference: ctx.service.reference });
    const folder = folderOf(request.body.folder);
    const taken = await store.selectFrom('site').select('id').where('service_id', '=', ctx.service.id).where('name', '=', name).executeTakeFirst();
    if (taken) throw FieldErrors.one('subDomain', 'validation.duplicate');
    const ssl = resolveSsl(app, `${name}.${ctx.service.reference}`, request.body, null);
    const t = now();
    const { site, job } = await store
      .transaction()
      .execute(async (trx) => {
        const site = await trx
          .insertInto('site')
          .values({ service_id: ctx.service.id, name, folder, ...ssl, created_at: t, updated_at: t })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { site, job: await enqueueApply(trx, ctx.service.id, siteKey(site.id)) };
      })
      .catch((error) => {
        throw isUniqueViolation(error) ? FieldErrors.one('subDomain', 'validation.duplicate') : error;
      });
    return { data: { subdomain: presentSite(site, ctx.service.reference, 0) }, info: [{ key: 'sites.site_created' }], job };
  });

  app.post('/service/:id/subdomain/:subId/save/', { schema: { ...params, body: subdomainSaveSchema } }, async (request) => {
    const ctx = await serviceFor(request, request.params.id, 'service_subdomains', 'write', { normalOnly: true });
    const existing = await siteOf(request, ctx, request.params.subId);
    const folder = folderOf(request.body.folder);
    const ssl = resolveSsl(app, `${existing.name}.${ctx.service.reference}`, request.body, existing);
    const { site, job } = await store.transaction().execute(async (trx) => {
      const site = await trx
        .updateTable('site')
        .set({ folder, ...ssl, updated_at: now() })
        .where('id', '=', existing.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { site, job: await enqueueApply(trx, ctx.service.id, siteKey(site.id)) };
    });
    const data = { subdomain: presentSite(site, ctx.service.reference, await redirectionCount(request, site.id)) };
    return { data, info: [{ key: 'sites.site_saved' }], job };
  });

  app.get('/service/:id/subdomain/:subId/delete/', { schema: params }, async (request) => {
    const ctx = await serviceFor(request, request.params.id, 'service_subdomains', 'write', { normalOnly: true });
    const site = await siteOf(request, ctx, request.params.subId);
    const job = await store.transaction().execute(async (trx) => {
      await trx.deleteFrom('site').where('id', '=', site.id).execute();
      return enqueueApply(trx, ctx.service.id, siteKey(site.id));
    });
    return { data: { id: site.id }, info: [{ key: 'sites.site_deleted' }], job };
  });
}
