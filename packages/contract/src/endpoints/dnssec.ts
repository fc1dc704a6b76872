import { z } from 'zod';
import { delegationCheckSchema, dnssecSwitchSchema, zoneDnssecSchema } from '../dnssec.ts';
import { endpoint } from './endpoint.ts';

const zoneParams = z.object({ id: z.string().max(20) });

/** DNSSEC of a zone and the check of its delegation (decision 034); part of endpoints.dns. */
export const dnssecCalls = {
  dnssec: endpoint({
    method: 'GET',
    path: '/service/:id/dns/dnssec/',
    params: zoneParams,
    answer: zoneDnssecSchema,
    permission: { area: 'service_dnszone', level: 'read' },
  }),
  /** Signing on or off; off with a DS the panel does not manage still at the registry asks for `confirm`. */
  dnssecSwitch: endpoint({
    method: 'POST',
    path: '/service/:id/dns/dnssec/',
    params: zoneParams,
    body: dnssecSwitchSchema,
    answer: zoneDnssecSchema,
    permission: { area: 'service_dnszone', level: 'write' },
  }),
  /** A key roll by the double-DS method, one step at a time as TTLs pass; only while the zone is signed. */
  dnssecRoll: endpoint({
    method: 'POST',
    path: '/service/:id/dns/dnssec/roll/',
    params: zoneParams,
    answer: zoneDnssecSchema,
    permission: { area: 'service_dnszone', level: 'write' },
  }),
  /** Asks the registry and each name server: findings in plain words, each with its fix. */
  check: endpoint({
    method: 'GET',
    path: '/service/:id/dns/check/',
    params: zoneParams,
    answer: delegationCheckSchema,
    permission: { area: 'service_dnszone', level: 'read' },
  }),
};
