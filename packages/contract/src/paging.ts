/**
 * Lists paged, filtered and sorted on the server (docs/decisions/025-paged-lists.md): the query every
 * paged list call takes, the answer it gives, and the one text normalisation both sides filter with.
 */
import { z } from 'zod';
import { EXPIRY_STATES } from './domain/types.ts';
import { LIMITS } from './settings.ts';
import { singleLine } from './strings.ts';

/** Lower-cased, accent-free text, so 'Región' matches 'region' and 'ñandú' matches 'nandu'. */
export const searchKey = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** The highest page number a call accepts: a million pages of 10 is far past any realm. */
export const MAX_PAGE = 1_000_000;

/**
 * page (1-based), filter (every word must appear in the row's search text), sort (one of the
 * list's columns) and order. Absent fields take the first page, no filter, the first sort, ascending.
 */
export const pageQuerySchema = <const S extends readonly [string, ...string[]]>(sorts: S) =>
  z.object({
    page: z.coerce.number().int().min(1).max(MAX_PAGE).default(1),
    filter: singleLine(100).default(''),
    sort: z.enum(sorts).default(sorts[0]),
    order: z.enum(SORT_ORDERS).default('asc'),
  });

/** One page of a list and how many rows the whole (filtered) list holds. */
export const pageSchema = <T extends z.ZodType>(row: T) =>
  z.object({ rows: z.array(row), total: z.number(), page: z.number(), pageSize: z.number() });
export interface Page<T> {
  rows: T[];
  total: number;
  page: number;
  pageSize: number;
}

export const PAGE_SIZE = LIMITS.pageSize;

/** The number of pages a total fills; an empty list still has its one (empty) page. */
export const pageCount = (total: number, size = PAGE_SIZE) => Math.max(1, Math.ceil(total / size));

/** The item lists (domains, services, mail): sorted by reference or by expiry date. */
export const ITEM_SORTS = ['reference', 'expiry'] as const;
export const itemPageQuery = pageQuerySchema(ITEM_SORTS);
export type ItemPageQuery = z.input<typeof itemPageQuery>;

/** A row of the domain, service or mail list: its expiry feeds the red/green status indicator. */
export const itemRowSchema = z.object({
  id: z.number(),
  reference: z.string(),
  /** Unix seconds: when that kind (domain, hosting or mail) of the item expires. */
  expireTS: z.number(),
  /** Services only: a parking service rather than hosting. */
  isRedirAndParking: z.boolean(),
  /** Domains only: where the domain is in its life (active, expired in grace, redemption, pending delete) and until when. */
  expiry: z.object({ state: z.enum(EXPIRY_STATES), until: z.number() }).optional(),
});
export type ItemRow = z.infer<typeof itemRowSchema>;
export const itemPageSchema = pageSchema(itemRowSchema);

/** Which of the three lists have at least one item for the user: the side menu's entries. */
export const listKindsSchema = z.object({ domain: z.boolean(), service: z.boolean(), mail: z.boolean() });
export type ListKinds = z.infer<typeof listKindsSchema>;
export const LIST_KINDS = ['domain', 'service', 'mail'] as const;
export type ListKind = (typeof LIST_KINDS)[number];
