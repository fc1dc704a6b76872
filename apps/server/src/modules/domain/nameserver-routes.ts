import { endpoints, isUnderDomain } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { noteChanges } from '../../http/actor.ts';
import { FieldErrors } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { domainOf } from './access.ts';
import { queueFromRequest, refuseBlocked } from './changes.ts';
import { defaultNameServers } from './defaults.ts';
import { confirmDsKept } from './ds-guard.ts';
import { hasService } from './registry.ts';

/** GET /domains/{id}/dnsinit/ and POST /domain/{id}/dnsedit/. */
export default async function nameServerRoutes(app: FastifyInstance) {
  const { config, store } = app.runtime;
  route(app, endpoints.domain.nameServers, async (request) => {
    const { info } = await domainOf(request);
    const withService = await hasService(request, info.itemId);
    return {
      data: { domainDNSs: info.nameServers, defaultDNSs: defaultNameServers(config), hasService: withService, mode: info.dnsMode },
    };
  });

  route(app, endpoints.domain.saveNameServers, async (request) => {
    // One registry read serves every check below: the domain's info carries its glue and DNSSEC.
    const { info } = await domainOf(request);
    const { defaultNs, servers } = request.body;
    if (defaultNs && !(await hasService(request, info.itemId))) throw FieldErrors.one('default-ns', 'domain.default_ns_no_service');
    refuseBlocked(info);
    const hosts = defaultNs ? defaultNameServers(config) : servers;
    // A name server inside the domain needs its glue record first: the panel knows, the registry need not say.
    const glue = new Set(info.glueHosts);
    const lacking = hosts.find((host) => isUnderDomain(host, info.name) && !glue.has(host));
    if (lacking !== undefined) throw FieldErrors.one(`dns.${request.body.rows[servers.indexOf(lacking)] ?? 0}`, 'domain.ns_needs_glue');
    if (!request.body.confirm) await confirmDsKept(store, info, hosts, defaultNameServers(config));
    await queueFromRequest(request, info.itemId, 'nameServers', { mode: defaultNs ? 'defaultDNS' : 'setDNS', hosts });
    noteChanges(request, { nameServers: info.nameServers }, { nameServers: hosts });
    return { data: { servers: hosts }, info: [{ key: 'domain.dns_saved' }] };
  });
}
