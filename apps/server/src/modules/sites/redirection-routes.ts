import { endpoints, type RedirectionCreateInput, toOriginPath, toSiteName, toTargetUrl } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { FieldErrors } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import type { Store } from '../../store/db.ts';
import { now } from '../../store/db.ts';
import type { ServiceAccess } from '../permission/access.ts';
import { redirectionOf } from './access.ts';
import { presentRedirection } from './present.ts';
import { apexKey, enqueueApply, siteKey } from './state.ts';

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
async function hostOf(store: Store, access: ServiceAccess, typed: string): Promise<{ siteId: number | null; name: string }> {
  if (access.service.kind === 'parking') {
    if (typed.trim() === '' || typed.trim().toLowerCase() === access.reference) return { siteId: null, name: '' };
    throw FieldErrors.one('subDomain', 'sites.parking_bare_domain');
  }
  const name = toSiteName(typed, access.reference);
  const site = name
    ? await store.selectFrom('site').select('id').where('service_id', '=', access.itemId).where('name', '=', name).executeTakeFirst()
    : undefined;
  if (!site || !name) throw FieldErrors.one('subDomain', 'sites.site_unknown');
  return { siteId: site.id, name };
}

const keyOf = (access: ServiceAccess, siteId: number | null) => (siteId === null ? apexKey(access.itemId) : siteKey(siteId));

/** Redirections (area service_redirects), on the sites of a service or a parking service's domain. */
export default async function redirectionRoutes(app: FastifyInstance) {
  const { store } = app.runtime;

  route(app, endpoints.sites.redirectionList, async (request) => {
    const { access } = request;
    const rows = await store
      .selectFrom('redirection')
      .leftJoin('site', 'site.id', 'redirection.site_id')
      .selectAll('redirection')
      .select('site.name as site_name')
      .where('redirection.service_id', '=', access.itemId)
      .orderBy('redirection.id')
      .execute();
    return { data: { redirection: rows.map((r) => presentRedirection(r, r.site_name ?? '', access.reference)) } };
  });

  route(app, endpoints.sites.redirectionGet, async (request) => {
    const { access } = request;
    const row = await redirectionOf(request, request.params.rid);
    return { data: { redirection: presentRedirection(row, row.site_name ?? '', access.reference) } };
  });

  route(app, endpoints.sites.redirectionCreate, async (request) => {
    const { access } = request;
    const host = await hostOf(store, access, request.body.subDomain);
    const origin = toOriginPath(request.body.recurso);
    if (!origin) throw FieldErrors.one('recurso', 'sites.origin_invalid');
    const columns = targetColumns(request.body);
    let clash = store.selectFrom('redirection').select('id').where('service_id', '=', access.itemId).where('origin', '=', origin);
    clash = host.siteId === null ? clash.where('site_id', 'is', null) : clash.where('site_id', '=', host.siteId);
    if (await clash.executeTakeFirst()) throw FieldErrors.one('recurso', 'validation.duplicate');
    const { row, job } = await store.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('redirection')
        .values({ service_id: access.itemId, site_id: host.siteId, origin, ...columns, created_at: now() })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { row, job: await enqueueApply(trx, access.itemId, keyOf(access, host.siteId)) };
    });
    const data = { redirection: presentRedirection(row, host.name, access.reference) };
    return { data, info: [{ key: 'sites.redirection_created' }], job };
  });

  route(app, endpoints.sites.redirectionSave, async (request) => {
    const { access } = request;
    const existing = await redirectionOf(request, request.params.rid);
    const columns = targetColumns(request.body);
    const { row, job } = await store.transaction().execute(async (trx) => {
      const row = await trx.updateTable('redirection').set(columns).where('id', '=', existing.id).returningAll().executeTakeFirstOrThrow();
      return { row, job: await enqueueApply(trx, access.itemId, keyOf(access, existing.site_id)) };
    });
    const data = { redirection: presentRedirection(row, existing.site_name ?? '', access.reference) };
    return { data, info: [{ key: 'sites.redirection_saved' }], job };
  });

  route(app, endpoints.sites.redirectionDelete, async (request) => {
    const { access } = request;
    const existing = await redirectionOf(request, request.params.rid);
    const job = await store.transaction().execute(async (trx) => {
      await trx.deleteFrom('redirection').where('id', '=', existing.id).execute();
      return enqueueApply(trx, access.itemId, keyOf(access, existing.site_id));
    });
    return { data: { id: existing.id }, info: [{ key: 'sites.redirection_deleted' }], job };
  });
}
