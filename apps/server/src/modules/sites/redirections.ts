import {
  type RedirectionCreateInput,
  redirectionCreateSchema,
  redirectionSaveSchema,
  toOriginPath,
  toSiteName,
  toTargetUrl,
} from '@atalaya/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FieldErrors, notFound } from '../../http/errors.ts';
import { now } from '../../store/db.ts';
import { type ServiceContext, serviceFor } from './context.ts';
import { presentRedirection } from './present.ts';
import { apexKey, enqueueApply, siteKey } from './state.ts';
import { pathId } from '../../http/ids.ts';

const params = { params: z.object({ id: z.string(), rid: z.string() }) };
const serviceParams = { params: z.object({ id: z.string() }) };
type Fields = Pick<Required<RedirectionCreateInput>, 'urlRedir' | 'redirType' | 'iframeTitle' | 'iframeDescription' | 'iframeKeywords'>;

/** The columns of a redirection's target; the frame texts are kept only for frames. */
function targetColumns(body: Fields) {
  const target = toTargetUrl(body.urlRedir);
  if (!target) throw FieldErrors.one('urlRedir', 'validation.url');
  const frame = body.redirType === 'frame';
  return {
    kind: body.redirType,
    target,
    iframe_title: frame ? body.iframeTitle : '',
    iframe_description: frame ? body.iframeDescription : '',
    iframe_keywords: frame ? body.iframeKeywords : '',
  };
}

/** The host a redirection hangs on: a site of the service, or its bare domain (a parking service's only host). */
async function hostOf(request: FastifyRequest, ctx: ServiceContext, typed: string): Promise<{ siteId: number | null; name: string }> {
  if (ctx.service.kind === 'parking') {
    if (typed.trim() === '' || typed.trim().toLowerCase() === ctx.service.reference) return { siteId: null, name: '' };
    throw FieldErrors.one('subDomain', 'sites.parking_bare_domain');
  }
  const name = toSiteName(typed, ctx.service.reference);
  const site = name
    ? await request.server.store.selectFrom('site').select('id').where('service_id', '=', ctx.service.id).where('name', '=', name).executeTakeFirst()
    : undefined;
  if (!site || !name) throw FieldErrors.one('subDomain', 'sites.site_unknown');
  return { siteId: site.id, name };
}

async function redirectionOf(request: FastifyRequest, ctx: ServiceContext, rawId: string) {
  const row = await request.server.store
    .selectFrom('redirection')
    .leftJoin('site', 'site.id', 'redirection.site_id')
    .selectAll('redirection')
    .select('site.name as site_name')
    .where('redirection.id', '=', pathId(rawId))
    .where('redirection.service_id', '=', ctx.service.id)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

const keyOf = (ctx: ServiceContext, siteId: number | null) => (siteId === null ? apexKey(ctx.service.id) : siteKey(siteId));

/** §7 Redirections (area service_redirects), on the sites of a service or a parking service's domain. */
export function redirectionRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { store } = app;

  app.get('/service/:id/redirection/list/', { schema: serviceParams }, async (request) => {
    const ctx = await serviceFor(request, request.params.id, 'service_redirects', 'read');
    const rows = await store
      .selectFrom('redirection')
      .leftJoin('site', 'site.id', 'redirection.site_id')
      .selectAll('redirection')
      .select('site.name as site_name')
      .where('redirection.service_id', '=', ctx.service.id)
      .orderBy('redirection.id')
      .execute();
    return { data: { redirection: rows.map((r) => presentRedirection(r, r.site_name ?? '', ctx.service.reference)) } };
  });

  app.get('/service/:id/redirection/:rid/', { schema: params }, async (request) => {
    const ctx = await serviceFor(request, request.params.id, 'service_redirects', 'read');
    const row = await redirectionOf(request, ctx, request.params.rid);
    return { data: { redirection: presentRedirection(row, row.site_name ?? '', ctx.service.reference) } };
  });

  app.post('/service/:id/redirection/create/', { schema: { ...serviceParams, body: redirectionCreateSchema } }, async (request) => {
    const ctx = await serviceFor(request, request.params.id, 'service_redirects', 'write');
    const host = await hostOf(request, ctx, request.body.subDomain);
    const origin = toOriginPath(request.body.recurso);
    if (!origin) throw FieldErrors.one('recurso', 'sites.origin_invalid');
    const columns = targetColumns(request.body);
    let clash = store.selectFrom('redirection').select('id').where('service_id', '=', ctx.service.id).where('origin', '=', origin);
    clash = host.siteId === null ? clash.where('site_id', 'is', null) : clash.where('site_id', '=', host.siteId);
    if (await clash.executeTakeFirst()) throw FieldErrors.one('recurso', 'validation.duplicate');
    const { row, job } = await store.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('redirection')
        .values({ service_id: ctx.service.id, site_id: host.siteId, origin, ...columns, created_at: now() })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { row, job: await enqueueApply(trx, ctx.service.id, keyOf(ctx, host.siteId)) };
    });
    const data = { redirection: presentRedirection(row, host.name, ctx.service.reference) };
    return { data, info: [{ key: 'sites.redirection_created' }], job };
  });

  app.post('/service/:id/redirection/:rid/save/', { schema: { ...params, body: redirectionSaveSchema } }, async (request) => {
    const ctx = await serviceFor(request, request.params.id, 'service_redirects', 'write');
    const existing = await redirectionOf(request, ctx, request.params.rid);
    const columns = targetColumns(request.body);
    const { row, job } = await store.transaction().execute(async (trx) => {
      const row = await trx.updateTable('redirection').set(columns).where('id', '=', existing.id).returningAll().executeTakeFirstOrThrow();
      return { row, job: await enqueueApply(trx, ctx.service.id, keyOf(ctx, existing.site_id)) };
    });
    const data = { redirection: presentRedirection(row, existing.site_name ?? '', ctx.service.reference) };
    return { data, info: [{ key: 'sites.redirection_saved' }], job };
  });

  app.get('/service/:id/redirection/:rid/delete/', { schema: params }, async (request) => {
    const ctx = await serviceFor(request, request.params.id, 'service_redirects', 'write');
    const existing = await redirectionOf(request, ctx, request.params.rid);
    const job = await store.transaction().execute(async (trx) => {
      await trx.deleteFrom('redirection').where('id', '=', existing.id).execute();
      return enqueueApply(trx, ctx.service.id, keyOf(ctx, existing.site_id));
    });
    return { data: { id: existing.id }, info: [{ key: 'sites.redirection_deleted' }], job };
  });
}
