import { z } from 'zod';
import { EXPIRY_STATES } from './domain/types.ts';

/** What may expire and is announced before it does (decision 019). */
export const EXPIRING_KINDS = ['certificate', 'domain', 'service'] as const;
export type ExpiringKind = (typeof EXPIRING_KINDS)[number];

/** The default days before expiry at which users who may write the item are mailed. */
export const DEFAULT_WARN_DAYS = [30, 7, 1] as const;

export const expiringSchema = z.object({
  kind: z.enum(EXPIRING_KINDS),
  itemId: z.number(),
  /** The item's reference, e.g. `tienda.es`. */
  reference: z.string(),
  /** What expires: the certificate's host, or the domain or service's reference. */
  name: z.string(),
  /** Unix seconds; in the past when it has already expired. */
  expiresAt: z.number(),
  /** For a certificate: a free one renewed by the panel, or an uploaded one; null otherwise. */
  source: z.enum(['acme', 'upload']).nullable(),
  /** Domains only: where the domain is at its registry once expired (grace, redemption, pending delete) and until when. */
  expiry: z.object({ state: z.enum(EXPIRY_STATES), until: z.number() }).optional(),
});
export type Expiring = z.infer<typeof expiringSchema>;
