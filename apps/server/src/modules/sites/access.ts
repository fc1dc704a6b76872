import { notFound } from '../../http/errors.ts';
import { pathId } from '../../http/ids.ts';
import type { ItemRequest, ServiceAccess } from '../permission/access.ts';

type ServiceRequest = ItemRequest<ServiceAccess>;

/** The site of the path, checked against the service its route authorised: another service's site answers 404. */
export async function siteOf(request: ServiceRequest, rawId: string) {
  const site = await request.server.runtime.store
    .selectFrom('site')
    .selectAll()
    .where('id', '=', pathId(rawId))
    .where('service_id', '=', request.access.itemId)
    .executeTakeFirst();
  if (!site) throw notFound();
  return site;
}

/** The redirection of the path, with its site's name, checked against the service its route authorised. */
export async function redirectionOf(request: ServiceRequest, rawId: string) {
  const row = await request.server.runtime.store
    .selectFrom('redirection')
    .leftJoin('site', 'site.id', 'redirection.site_id')
    .selectAll('redirection')
    .select('site.name as site_name')
    .where('redirection.id', '=', pathId(rawId))
    .where('redirection.service_id', '=', request.access.itemId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}
