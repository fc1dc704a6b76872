import { endpoints, isUnderDomain } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import type { RegistryDriver } from '../../drivers/registry/interface.ts';
import { ApiError, FieldErrors, notFound } from '../../http/errors.ts';
import { pathId } from '../../http/ids.ts';
import { route } from '../../http/route.ts';
import { domainOf } from './access.ts';
import { queueFromRequest, refuseBlocked } from './changes.ts';

/** Glue records: host objects named inside the domain, IPv4 required and IPv6 optional. */
export default async function glueRoutes(app: FastifyInstance) {
  route(app, endpoints.domain.glueList, async (request) => {
    const { info, registry } = await domainOf(request);
    const hosts = await registry.listHosts(info.itemId);
    return { data: { gluerecords: hosts.map((h) => ({ id: h.id, name: h.name, ip: h.ipv4, ipv6: h.ipv6 })) } };
  });

  route(app, endpoints.domain.glueCreate, async (request) => {
    const { info, registry } = await domainOf(request);
    const { name, ip, ipv6 } = request.body;
    if (!isUnderDomain(name, info.name)) throw FieldErrors.one('name', 'domain.glue_outside');
    refuseBlocked(info);
    if ((await registry.listHosts(info.itemId)).some((h) => h.name === name)) throw FieldErrors.one('name', 'validation.duplicate');
    const change = await queueFromRequest(request, info.itemId, 'hostCreate', { name, ipv4: ip, ipv6 });
    return { data: { change }, info: [{ key: 'domain.glue_created' }] };
  });

  route(app, endpoints.domain.glueSave, async (request) => {
    const { info, registry } = await domainOf(request);
    const host = await hostOf(registry, info.itemId, request.params.recordId);
    refuseBlocked(info);
    const payload = { hostId: host.id, name: host.name, ipv4: request.body.ip, ipv6: request.body.ipv6 };
    const change = await queueFromRequest(request, info.itemId, 'hostUpdate', payload);
    return { data: { change }, info: [{ key: 'domain.glue_saved' }] };
  });

  route(app, endpoints.domain.glueDelete, async (request) => {
    const { info, registry } = await domainOf(request);
    const host = await hostOf(registry, info.itemId, request.params.recordId);
    refuseBlocked(info);
    // RFC 5732: a host the domain still delegates to cannot go; the panel knows before the registry says so.
    if (info.nameServers.includes(host.name)) throw new ApiError(409, 'domain.glue_in_use');
    const change = await queueFromRequest(request, info.itemId, 'hostDelete', { hostId: host.id, name: host.name });
    return { data: { change }, info: [{ key: 'domain.glue_deleted' }] };
  });
}

/** The glue record of the path, 404 when the domain has none with that id. */
async function hostOf(registry: RegistryDriver, itemId: number, recordId: string) {
  const id = pathId(recordId);
  const host = (await registry.listHosts(itemId)).find((h) => h.id === id);
  if (!host) throw notFound();
  return host;
}
