import { endpoints, isUnderDomain } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { FieldErrors } from '../../http/errors.ts';
import { pathId } from '../../http/ids.ts';
import { route } from '../../http/route.ts';
import { domainOf } from './access.ts';
import { viaRegistry } from './refusals.ts';

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
    const id = await viaRegistry(() => registry.createHost(info.itemId, { name, ipv4: ip, ipv6 }), 'name');
    return { data: { id }, info: [{ key: 'domain.glue_created' }] };
  });

  route(app, endpoints.domain.glueSave, async (request) => {
    const { info, registry } = await domainOf(request);
    const recordId = pathId(request.params.recordId);
    await viaRegistry(() => registry.updateHost(info.itemId, recordId, { ipv4: request.body.ip, ipv6: request.body.ipv6 }));
    return { data: { id: recordId }, info: [{ key: 'domain.glue_saved' }] };
  });

  route(app, endpoints.domain.glueDelete, async (request) => {
    const { info, registry } = await domainOf(request);
    const recordId = pathId(request.params.recordId);
    await viaRegistry(() => registry.deleteHost(info.itemId, recordId));
    return { data: {}, info: [{ key: 'domain.glue_deleted' }] };
  });
}
