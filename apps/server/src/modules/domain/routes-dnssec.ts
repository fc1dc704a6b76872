import {
  DIGEST_TYPES,
  DNSSEC_ALGORITHMS,
  DNSSEC_FLAGS,
  DNSSEC_PROTOCOLS,
  type DnssecCreate,
  type DnssecInit,
  type DnssecRecord,
  dnssecCreateSchema,
  OFFERED_ALGORITHMS,
  OFFERED_DIGEST_TYPES,
} from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SecDns, SecDnsData } from '../../drivers/registry/interface.ts';
import { keyTag } from '../../drivers/registry/keytag.ts';
import { FieldErrors } from '../../http/errors.ts';
import { pathId } from '../../http/ids.ts';
import { openDomain } from './registry.ts';
import { viaRegistry } from './refusals.ts';
import { dnssecTypeOf } from './tld.ts';

const idParams = z.object({ id: z.string() });
const recordParams = z.object({ id: z.string(), dnssecId: z.string() });
const pick = (table: Record<number, string>, codes: readonly number[]) => Object.fromEntries(codes.map((c) => [c, table[c]]));

const toRecord = (ds: SecDns): DnssecRecord => ({
  id: ds.id,
  type: ds.type,
  keytag: ds.keyTag,
  algorithm: ds.algorithm,
  digesttype: ds.digestType,
  digest: ds.digest,
  flags: ds.flags,
  protocols: ds.protocol,
});

function toData(input: DnssecCreate): SecDnsData {
  if (input.type === 'digest') {
    return { type: 'digest', keyTag: input.keytag, algorithm: input.algorithm, digestType: input.digesttype, digest: input.digest, flags: null, protocol: null };
  }
  const tag = keyTag(input.flags, input.protocols, input.algorithm, input.digest);
  return { type: 'pubkey', keyTag: tag, algorithm: input.algorithm, digestType: null, digest: input.digest, flags: input.flags, protocol: input.protocols };
}

/** DNSSEC: DS data (digest) or DNSKEY data (pubkey), whichever the domain's registry takes. */
export async function dnssecRoutes(plain: FastifyInstance) {
  const app = plain.withTypeProvider<ZodTypeProvider>();

  app.get('/domain/:id/dnssec/list/', { schema: { params: idParams } }, async (request) => {
    const { info, registry } = await openDomain(request, request.params.id, 'domain_dnssec', 'read');
    return { data: { dnssec: (await registry.listSecDns(info.itemId)).map(toRecord) } };
  });

  app.get('/domain/:id/dnssec/createinit/', { schema: { params: idParams } }, async (request) => {
    const { info } = await openDomain(request, request.params.id, 'domain_dnssec', 'read');
    const data: DnssecInit = {
      type: dnssecTypeOf(info.name),
      algorithms: pick(DNSSEC_ALGORITHMS, OFFERED_ALGORITHMS),
      digestTypes: pick(DIGEST_TYPES, OFFERED_DIGEST_TYPES),
      flags: DNSSEC_FLAGS,
      protocols: DNSSEC_PROTOCOLS,
    };
    return { data };
  });

  app.post('/domain/:id/dnssec/create/', { schema: { params: idParams, body: dnssecCreateSchema } }, async (request) => {
    const { info, registry } = await openDomain(request, request.params.id, 'domain_dnssec', 'write');
    const type = dnssecTypeOf(info.name);
    if (request.body.type !== type) throw FieldErrors.one('type', 'domain.dnssec_wrong_type', { type });
    const id = await viaRegistry(() => registry.addSecDns(info.itemId, toData(request.body)), 'digest');
    return { data: { id }, info: [{ key: 'domain.dnssec_created' }] };
  });

  app.get('/domain/:id/dnssec/:dnssecId/delete/', { schema: { params: recordParams } }, async (request) => {
    const { info, registry } = await openDomain(request, request.params.id, 'domain_dnssec', 'write');
    const dnssecId = pathId(request.params.dnssecId);
    await viaRegistry(() => registry.removeSecDns(info.itemId, dnssecId));
    return { data: {}, info: [{ key: 'domain.dnssec_deleted' }] };
  });
}
