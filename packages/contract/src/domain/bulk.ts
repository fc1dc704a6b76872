import { z } from 'zod';
import { LIMITS } from '../settings.ts';
import { RENEWAL_MODES } from './schemas.ts';
import { toHostName } from './validators.ts';

/**
 * Bulk actions from the domain list (POST /domain/bulk/): one action over many domains, each
 * domain checked with the same permission as its single call and applied through the registry's
 * queue. The action's fields are required only for that action, each refused under its own name.
 */
export const BULK_ACTIONS = ['renew', 'renewal', 'nameServers', 'lock', 'contacts'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
/** The locks a bulk action sets: the modification block and the transfer block. */
export const BULK_LOCKS = ['block', 'transferblock'] as const;
/** At most this many domains in one bulk action. */
export const BULK_MAX = 1000;

const choice = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: (issue) => (issue.input === undefined ? 'validation.required' : 'validation.invalid_option') });

export const bulkSchema = z
  .object({
    action: choice(BULK_ACTIONS),
    ids: z
      .array(z.string().regex(/^\d{1,12}$/, 'validation.invalid'))
      .max(BULK_MAX, 'domain.bulk_too_many')
      .optional(),
    years: z.string().trim().max(2).optional(),
    mode: choice(RENEWAL_MODES).optional(),
    dns: z.array(z.string().max(300)).max(50).optional(),
    lock: choice(BULK_LOCKS).optional(),
    on: choice(['0', '1']).optional(),
    /** contacts: the domain whose admin, billing and tech contacts are copied. */
    sourceId: z.string().trim().max(12).optional(),
  })
  .transform((v, ctx) => {
    const need = (field: string) => ctx.addIssue({ code: 'custom', path: [field], message: 'validation.required' });
    // An empty selection sends no `ids[]` at all: the same refusal as an empty list.
    const ids = [...new Set((v.ids ?? []).map(Number))];
    if (ids.length === 0) ctx.addIssue({ code: 'custom', path: ['ids'], message: 'domain.bulk_none' });
    let years = 0;
    const servers: string[] = [];
    if (v.action === 'renew') {
      if (!v.years) need('years');
      else if (!/^\d{1,2}$/.test(v.years)) ctx.addIssue({ code: 'custom', path: ['years'], message: 'validation.number' });
      else years = Number(v.years);
    }
    if (v.action === 'renewal' && !v.mode) need('mode');
    if (v.action === 'lock') {
      if (!v.lock) need('lock');
      if (!v.on) need('on');
    }
    if (v.action === 'contacts' && !/^\d{1,12}$/.test(v.sourceId ?? '')) need('sourceId');
    if (v.action === 'nameServers') {
      const filled = (v.dns ?? []).map((s, index) => ({ s: s.trim(), index })).filter((e) => e.s !== '');
      if (filled.length < LIMITS.dnsServersMin) ctx.addIssue({ code: 'custom', path: ['dns'], message: 'domain.ns_min' });
      else if (filled.length > LIMITS.dnsServersMax) ctx.addIssue({ code: 'custom', path: ['dns'], message: 'domain.ns_max' });
      else
        for (const { s, index } of filled) {
          const host = toHostName(s);
          if (host === null) ctx.addIssue({ code: 'custom', path: ['dns', index], message: 'validation.hostname' });
          else if (servers.includes(host)) ctx.addIssue({ code: 'custom', path: ['dns', index], message: 'domain.ns_duplicate' });
          else servers.push(host);
        }
    }
    return {
      action: v.action,
      ids,
      years,
      mode: v.mode ?? 'auto',
      servers,
      lock: v.lock ?? 'block',
      on: v.on === '1',
      sourceId: Number(v.sourceId ?? 0),
    };
  });
export type BulkInput = z.input<typeof bulkSchema>;

/** Where one domain of a bulk action stands: queued for the registry, done, refused (with why), or skipped (no permission). */
export const BULK_ITEM_STATES = ['queued', 'done', 'failed', 'skipped'] as const;
export type BulkItemState = (typeof BULK_ITEM_STATES)[number];

export const bulkItemSchema = z.object({
  /** The id as it was sent; the name is empty for an id the caller may not see. */
  id: z.number(),
  name: z.string(),
  state: z.enum(BULK_ITEM_STATES),
  /** Why it was refused or skipped, translated, with the registry's own words. */
  message: z.string(),
});
export type BulkItem = z.infer<typeof bulkItemSchema>;

export const bulkAnswerSchema = z.object({
  id: z.number(),
  action: z.enum(BULK_ACTIONS),
  total: z.number(),
  counts: z.object({ queued: z.number(), done: z.number(), failed: z.number(), skipped: z.number() }),
  items: z.array(bulkItemSchema),
});
export type BulkAnswer = z.infer<typeof bulkAnswerSchema>;
