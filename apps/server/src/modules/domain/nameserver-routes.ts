import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { noteChanges } from '../../http/actor.ts';
import { FieldErrors } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { domainOf } from './access.ts';
import { defaultNameServers } from './defaults.ts';
import { confirmDsKept } from './ds-guard.ts';
import { viaRegistry } from './refusals.ts';
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
    const { info, registry } = await domainOf(request);
    const { defaultNs, servers } = request.body;
    if (defaultNs && !(await hasService(request, info.itemId))) throw FieldErrors.one('default-ns', 'domain.default_ns_no_service');
    const hosts = defaultNs ? defaultNameServers(config) : servers;
    if (!request.body.confirm) await confirmDsKept(store, registry, info, hosts, defaultNameServers(config));
    await viaRegistry(
      () => registry.setNameServers(info.itemId, defaultNs ? 'defaultDNS' : 'setDNS', hosts),
      (host) => `dns.${request.body.rows[servers.indexOf(host)] ?? 0}`,
    );
    noteChanges(request, { nameServers: info.nameServers }, { nameServers: hosts });
    return { data: { servers: hosts }, info: [{ key: 'domain.dns_saved' }] };
  });
}
