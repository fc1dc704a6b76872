import { dnsEditSchema } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { defaultNameServers } from '../../drivers/registry/index.ts';
import { FieldErrors } from '../../http/errors.ts';
import { hasService, openDomain } from './registry.ts';
import { viaRegistry } from './refusals.ts';

const idParams = z.object({ id: z.string() });

/** GET /domains/{id}/dnsinit/ and POST /domain/{id}/dnsedit/. */
export async function dnsRoutes(plain: FastifyInstance) {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  app.get('/domains/:id/dnsinit/', { schema: { params: idParams } }, async (request) => {
    const { info } = await openDomain(request, request.params.id, 'domain_dns', 'read');
    const withService = await hasService(request, info.itemId);
    return { data: { domainDNSs: info.nameServers, defaultDNSs: defaultNameServers(app.config), hasService: withService, mode: info.dnsMode } };
  });

  app.post('/domain/:id/dnsedit/', { schema: { params: idParams, body: dnsEditSchema } }, async (request) => {
    const { info, registry } = await openDomain(request, request.params.id, 'domain_dns', 'write');
    const { defaultNs, servers } = request.body;
    if (defaultNs && !(await hasService(request, info.itemId))) throw FieldErrors.one('default-ns', 'domain.default_ns_no_service');
    const hosts = defaultNs ? defaultNameServers(app.config) : servers;
    await viaRegistry(
      () => registry.setNameServers(info.itemId, defaultNs ? 'defaultDNS' : 'setDNS', hosts),
      (host) => `dns.${request.body.rows[servers.indexOf(host)] ?? 0}`,
    );
    return { data: { servers: hosts }, info: [{ key: 'domain.dns_saved' }] };
  });
}
