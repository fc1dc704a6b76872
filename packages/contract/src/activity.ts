/** The activity log (decision 023): what the Activity page lists and how it filters. */
import { z } from 'zod';
import { AREAS } from './permissions.ts';
import { singleLine } from './strings.ts';

/** The areas an event may belong to: a permission area of an item, or `account` for the user's own calls. */
export const ACTIVITY_AREAS = [...AREAS, 'account'] as const;
export type ActivityArea = (typeof ACTIVITY_AREAS)[number];

/** Who made a change: a signed-in user, one of their API tokens, or the operator's command line. */
export const ACTOR_KINDS = ['user', 'token', 'cli', 'operator'] as const;

/** How a redacted value reads in the log: a secret is never written, only that it changed. */
export const REDACTED = '••••••';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const day = z
  .string()
  .trim()
  .refine((v) => v === '' || (DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`))), 'activity.bad_date')
  .optional();

/** The filters of the Activity page, all optional; `page` counts from 1, pages of LIMITS.pageSize. */
export const activityQuerySchema = z
  .object({
    page: z.coerce
      .number({ error: 'activity.bad_page' })
      .int('activity.bad_page')
      .min(1, 'activity.bad_page')
      .max(100_000, 'activity.bad_page')
      .default(1),
    item: z
      .string()
      .trim()
      .regex(/^(\d{1,10})?$/, 'activity.bad_item')
      .optional(),
    area: z.union([z.enum(ACTIVITY_AREAS), z.literal('')], { error: 'activity.bad_area' }).optional(),
    /** A username, an API token's name, or `cli`. */
    actor: singleLine(64).optional(),
    from: day,
    to: day,
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'activity.bad_range', path: ['to'] });
export type ActivityQuery = z.input<typeof activityQuerySchema>;

export const activityChangeSchema = z.object({ field: z.string(), before: z.string().nullable(), after: z.string().nullable() });
export type ActivityChange = z.infer<typeof activityChangeSchema>;

export const activityEventSchema = z.object({
  id: z.number(),
  /** Unix seconds. */
  at: z.number(),
  actor: z.object({ kind: z.enum(ACTOR_KINDS), name: z.string() }),
  ip: z.string(),
  /** The browser family (Firefox, Chrome…), empty when unknown. */
  agent: z.string(),
  item: z.object({ id: z.number(), reference: z.string() }).nullable(),
  area: z.string(),
  /** The call (`dns.create`) or the account event (`login`, `changepass`…). */
  action: z.string(),
  outcome: z.string(),
  changes: z.array(activityChangeSchema),
});
export type ActivityEvent = z.infer<typeof activityEventSchema>;

export const activityPageSchema = z.object({
  events: z.array(activityEventSchema),
  /** Every event the filters match, for the pager. */
  total: z.number(),
  page: z.number(),
});
export type ActivityPage = z.infer<typeof activityPageSchema>;
