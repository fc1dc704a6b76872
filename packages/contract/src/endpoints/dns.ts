import { z } from 'zod';
import { DNS_TYPES, dnsCreateSchema, dnsRecordSchema, dnsSaveSchema, ZONE_IMPORT_LIMITS } from '../dns.ts';
import { confirmQuery } from '../dnssec.ts';
import { MAX_PAGE } from '../paging.ts';
import { backendShape } from '../service.ts';
import { CONTROL_CHARACTERS, hasTextControl, requiredLine, singleLine } from '../strings.ts';
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
/** Import, templates and history (below): an RRset as a preview or the history shows it. */
const rrsetView = z.object({ name: z.string(), type: z.string(), ttl: z.number(), values: z.array(z.string()) });
/** What applying a file or a template does, RRset by RRset, and the lines it refuses with why. */
export const zonePlanSchema = z.object({
  added: z.array(rrsetView),
  changed: z.array(z.object({ before: rrsetView, after: rrsetView })),
  removed: z.array(rrsetView),
  refused: z.array(z.object({ line: z.number(), source: z.string(), reason: z.string() })),
});
/**
 * A master file as pasted or uploaded, refused under its field above ZONE_IMPORT_LIMITS (its
 * records are counted once read). The body may hold three times the text: a form encodes `:`,
 * `"` or a line break in three characters, and the cap must answer before the body limit does.
 */
const importBody = z.object({
  zone: z
    .string()
    .trim()
    .min(1, { abort: true })
    .max(ZONE_IMPORT_LIMITS.characters, { abort: true, message: 'dns.import_too_large' })
    .refine((v) => !hasTextControl(v), CONTROL_CHARACTERS),
});
const importBodyLimit = 3 * ZONE_IMPORT_LIMITS.characters + 64 * 1024;
const templateBody = z.object({ template: requiredLine(40) });
export const zoneChangeSchema = z.object({
  id: z.number(),
  at: z.number(),
  kind: z.string(),
  by: z.string(),
  before: z.array(rrsetView),
  after: z.array(rrsetView),
  /** The change this one reverted; and whether a later change reverted this one. */
  reverts: z.number().nullable(),
  reverted: z.boolean(),
});
const changeParams = z.object({ id: z.string().max(20), changeId: z.string().max(20) });

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

  // Zone import (an RFC 1035 master file): a preview, then the change. Both need write: the
  // preview is the first step of a write and reads the zone in full.
  importPreview: endpoint({
    method: 'POST',
    path: '/service/:id/dns/import/preview/',
    params: zoneParams,
    body: importBody,
    bodyLimit: importBodyLimit,
    answer: z.object({ plan: zonePlanSchema }),
    permission: write,
  }),
  import: endpoint({
    method: 'POST',
    path: '/service/:id/dns/import/',
    params: zoneParams,
    body: importBody,
    bodyLimit: importBodyLimit,
    answer: z.object({ plan: zonePlanSchema }),
    permission: write,
  }),
  // The provider's named record sets (drivers.dns.templates), applied with the same preview.
  templates: endpoint({
    method: 'GET',
    path: '/service/:id/dns/templates/',
    params: zoneParams,
    answer: z.object({ templates: z.array(z.object({ name: z.string(), label: z.string(), records: z.array(rrsetView) })) }),
    permission: read,
  }),
  templatePreview: endpoint({
    method: 'POST',
    path: '/service/:id/dns/templates/preview/',
    params: zoneParams,
    body: templateBody,
    answer: z.object({ plan: zonePlanSchema }),
    permission: write,
  }),
  templateApply: endpoint({
    method: 'POST',
    path: '/service/:id/dns/templates/apply/',
    params: zoneParams,
    body: templateBody,
    answer: z.object({ plan: zonePlanSchema }),
    permission: write,
  }),
  // The zone's history: its latest changes, newest first, each revertible.
  history: endpoint({
    method: 'GET',
    path: '/service/:id/dns/history/',
    params: zoneParams,
    answer: z.object({ changes: z.array(zoneChangeSchema) }),
    permission: read,
  }),
  revert: endpoint({
    method: 'POST',
    path: '/service/:id/dns/history/:changeId/revert/',
    params: changeParams,
    answer: z.null(),
    permission: write,
  }),
  ...dnssecCalls,
};
