import {
  DIGEST_TYPES,
  DNSSEC_ALGORITHMS,
  DNSSEC_FLAGS,
  DNSSEC_PROTOCOLS,
  type DnssecCreate,
  type DnssecInit,
  type DnssecRecord,
  endpoints,
  OFFERED_ALGORITHMS,
  OFFERED_DIGEST_TYPES,
} from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import type { SecDns, SecDnsData } from '../../drivers/registry/interface.ts';
import { keyTag } from '../../drivers/registry/keytag.ts';
import { ApiError, FieldErrors, notFound } from '../../http/errors.ts';
import { pathId } from '../../http/ids.ts';
import { route } from '../../http/route.ts';
import { domainOf } from './access.ts';
import { secDnsKey } from './actions.ts';
import { queueFromRequest, refuseBlocked } from './changes.ts';
import { managedDsIds } from './managed-ds.ts';
import { dnssecTypeOf } from './tld.ts';

const pick = (table: Record<number, string>, codes: readonly number[]) => Object.fromEntries(codes.map((c) => [c, table[c]]));

const toRecord =
  (managed: Set<number>) =>
  (ds: SecDns): DnssecRecord => ({
    id: ds.id,
    type: ds.type,
    keytag: ds.keyTag,
    algorithm: ds.algorithm,
    digesttype: ds.digestType,
    digest: ds.digest,
    flags: ds.flags,
    protocols: ds.protocol,
    managed: managed.has(ds.id),
  });

/** The registry's record: DS data carries its own key tag and digest type, DNSKEY data its flags and protocol (the tag is computed). */
function toData(input: DnssecCreate): SecDnsData {
  const { algorithm, digest } = input;
  if (input.type === 'digest') {
    return { type: 'digest', keyTag: input.keytag, algorithm, digestType: input.digesttype, digest, flags: null, protocol: null };
  }
  const { flags, protocols: protocol } = input;
  return { type: 'pubkey', keyTag: keyTag(flags, protocol, algorithm, digest), algorithm, digestType: null, digest, flags, protocol };
}

/** DNSSEC: DS data (digest) or DNSKEY data (pubkey), whichever the domain's registry takes. */
export default async function dnssecRoutes(app: FastifyInstance) {
  const { store } = app.runtime;
  const managedIds = (itemId: number) => managedDsIds(store, itemId);

  route(app, endpoints.domain.dnssecList, async (request) => {
    const { info, registry } = await domainOf(request);
    return { data: { dnssec: (await registry.listSecDns(info.itemId)).map(toRecord(await managedIds(info.itemId))) } };
  });

  route(app, endpoints.domain.dnssecInit, async (request) => {
    const { info } = await domainOf(request);
    const data: DnssecInit = {
      type: dnssecTypeOf(info.name),
      algorithms: pick(DNSSEC_ALGORITHMS, OFFERED_ALGORITHMS),
      digestTypes: pick(DIGEST_TYPES, OFFERED_DIGEST_TYPES),
      flags: DNSSEC_FLAGS,
      protocols: DNSSEC_PROTOCOLS,
    };
    return { data };
  });

  route(app, endpoints.domain.dnssecCreate, async (request) => {
    const { info, registry } = await domainOf(request);
    const type = dnssecTypeOf(info.name);
    if (request.body.type !== type) throw FieldErrors.one('type', 'domain.dnssec_wrong_type', { type });
    refuseBlocked(info);
    const data = toData(request.body);
    const same = (await registry.listSecDns(info.itemId)).some((d) => secDnsKey(d) === secDnsKey(data));
    if (same) throw FieldErrors.one('digest', 'validation.duplicate');
    const change = await queueFromRequest(request, info.itemId, 'secDnsAdd', data);
    return { data: { change }, info: [{ key: 'domain.dnssec_created' }] };
  });

  route(app, endpoints.domain.dnssecDelete, async (request) => {
    const { info, registry } = await domainOf(request);
    const dnssecId = pathId(request.params.dnssecId);
    if ((await managedIds(info.itemId)).has(dnssecId)) throw new ApiError(409, 'domain.dnssec_managed');
    const record = (await registry.listSecDns(info.itemId)).find((d) => d.id === dnssecId);
    if (!record) throw notFound();
    refuseBlocked(info);
    // The record's key goes with the id: reconcile reads the DNSSEC set the customer made from the changes.
    const change = await queueFromRequest(request, info.itemId, 'secDnsRemove', { id: dnssecId, key: secDnsKey(record) });
    return { data: { change }, info: [{ key: 'domain.dnssec_deleted' }] };
  });
}
