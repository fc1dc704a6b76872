import { z } from 'zod';
import { DNS_TYPES, dnsCreateSchema, dnsRecordSchema, dnsSaveSchema } from '../dns.ts';
import { confirmQuery } from '../dnssec.ts';
import { MAX_PAGE } from '../paging.ts';
import { backendShape } from '../service.ts';
import { singleLine } from '../strings.ts';
import { dnssecCalls } from './dnssec.ts';
import { endpoint } from './endpoint.ts';

const zoneParams = z.object({ id: z.string().max(20) });
const recordParams = z.object({ id: z.string().max(20), dnsId: z.string().max(20) });
const read = { area: 'service_dnszone', level: 'read' } as const;
const write = { area: 'service_dnszone', level: 'write' } as const;
const record = z.object({ dns: dnsRecordSchema });

/**
 * With `page`, one page of 10 records (docs/decisions/025-paged-lists.md), filtered on the server:
 * `type` keeps one type, every word of `filter` must appear in the record's name, type or value
 * (case-insensitive), and the answer carries the total. Without `page`, every record, as before.
 */
const dnsListQuery = z.object({
  page: z.coerce.number().int().min(1).max(MAX_PAGE).optional(),
  filter: singleLine(100).default(''),
  type: z.enum(['ALL', ...DNS_TYPES]).default('ALL'),
});

/** The DNS zone of a hosting service; deletes, restore and delete-all are GET like the other deletes. */
export const dns = {
  list: endpoint({
    method: 'GET',
    path: '/service/:id/dns/list/',
    params: zoneParams,
    query: dnsListQuery,
    answer: z.object({
      dnss: z.array(dnsRecordSchema),
      total: z.number().optional(),
      page: z.number().optional(),
      pageSize: z.number().optional(),
      /** Where the zone stands on the DNS server (its latest apply) and that job; absent from older servers. */
      state: backendShape.state.optional(),
      job: backendShape.job.optional(),
    }),
    permission: read,
  }),
  /** The zone as a BIND master file. */
  export: endpoint({
    method: 'GET',
    path: '/service/:id/dns/export/',
    params: zoneParams,
    answer: z.object({ zone: z.string(), text: z.string() }),
    permission: read,
  }),
  /** The zone as a BIND master file, streamed as a download: a 50,000-record zone is never one string. */
  exportFile: endpoint({
    method: 'GET',
    path: '/service/:id/dns/export/file/',
    params: zoneParams,
    answer: { file: 'text/dns' },
    permission: read,
  }),
  get: endpoint({ method: 'GET', path: '/service/:id/dns/:dnsId/', params: recordParams, answer: record, permission: read }),
  create: endpoint({
    method: 'POST',
    path: '/service/:id/dns/create/',
    params: zoneParams,
    body: dnsCreateSchema,
    answer: record,
    permission: write,
  }),
  save: endpoint({
    method: 'POST',
    path: '/service/:id/dns/:dnsId/save/',
    params: recordParams,
    body: dnsSaveSchema,
    answer: record,
    permission: write,
  }),
  delete: endpoint({ method: 'GET', path: '/service/:id/dns/:dnsId/delete/', params: recordParams, answer: z.null(), permission: write }),
  /** Back to the provider's template records. */
  restore: endpoint({ method: 'GET', path: '/service/:id/dns/restore/', params: zoneParams, answer: z.null(), permission: write }),
  /** Without `confirm` 1, a zone the domain's delegation points at answers 409 naming the consequence. */
  deleteAll: endpoint({
    method: 'GET',
    path: '/service/:id/dns/delete/',
    params: zoneParams,
    query: confirmQuery,
    answer: z.null(),
    permission: write,
  }),
  ...dnssecCalls,
};
