import { z } from 'zod';
import { AREAS, LEVELS } from '../permissions.ts';
import { CONTACT_TYPES, type ContactType, DNS_MODES, DNSSEC_TYPES } from './codes.ts';

/** The answers of the domain calls (docs/behaviour/shell-session-domains.md#data), as the routes send them and the screens read them. */

export const domainContactSchema = z.object({
  type: z.enum(['organization', 'individual']),
  orgName: z.string(),
  name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  vat: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  postalCode: z.string(),
  city: z.string(),
  cityKey: z.string(),
  state: z.string(),
  stateKey: z.string(),
  country: z.string(),
  countryKey: z.string(),
});
export type Contact = z.infer<typeof domainContactSchema>;
/** The fields a contact has in every shape (the API's and the registry's): who, and where. */
export type ContactPostal = Omit<Contact, 'type' | 'name' | 'vat' | 'countryKey'>;

/**
 * A domain's life at its registry: active, expired in its renewal grace, in redemption (restorable),
 * pending delete, and purged (the registry has deleted it for good; the panel keeps its item).
 */
export const EXPIRY_STATES = ['active', 'grace', 'redemption', 'pendingDelete', 'purged'] as const;
export type ExpiryState = (typeof EXPIRY_STATES)[number];

export const domainViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  dns: z.object({ mode: z.enum(DNS_MODES), servers: z.array(z.string()) }),
  status: z.string(),
  expireTS: z.number(),
  /** Where the domain is in its life at the registry, and when that state ends (Unix seconds). */
  expiry: z.object({ state: z.enum(EXPIRY_STATES), until: z.number() }),
  renewalMode: z.enum(['auto', 'expire']),
  /** After a change of owner: until when the domain cannot be transferred (Unix seconds; 0: no such lock). */
  transferLockUntil: z.number(),
  ts: z.number(),
  blocked: z.boolean(),
  transferBlock: z.boolean(),
  /** The statuses only the registry sets (`serverHold`, `serverTransferProhibited`…), as EPP names them. */
  serverStatuses: z.array(z.string()),
  whoisPrivacy: z.boolean(),
  permissions: z.partialRecord(z.enum(AREAS), z.enum(LEVELS)),
  authcode: z.boolean(),
  transferkey: z.boolean(),
  /** Whether the domain has an auth code or transfer key set; the code itself only by the reveal call (decision 051). */
  hasAuthCode: z.boolean(),
  /**
   * False for a domain the panel has but its registry has not (never registered here, not waiting
   * for a transfer in): it reads as not registered until a domain writer registers it (decision 051).
   */
  registered: z.boolean(),
  /** The registrar that holds the domain when it is not this panel's, '' when the registry does not know it; null when it is ours. */
  heldBy: z.string().nullable(),
  /** The item was made for a domain to be transferred in, which has not arrived yet. */
  transferIn: z.boolean(),
  /** A transfer of the domain waits for an answer (GET /domain/{id}/transfer/ says which). */
  pendingTransfer: z.boolean(),
});
export type DomainView = z.infer<typeof domainViewSchema>;

/**
 * A change sent to the registry that is not applied yet (pending, which includes a change the
 * registry accepted and completes later) or that it refused (failed, with its reason): the latest
 * change of each action unless it is done.
 */
export const registryChangeSchema = z.object({
  id: z.number(),
  action: z.string(),
  state: z.enum(['pending', 'failed']),
  /** Why it failed, translated, with the registry's own words; empty while pending. */
  message: z.string(),
  /**
   * The change's job when the outbox gave up on it (the registry never answered): a writer may
   * retry it. Null while pending and for a change the registry refused, which is asked anew.
   */
  job: z.number().nullable(),
});
export type RegistryChangeView = z.infer<typeof registryChangeSchema>;

/** GET /domain/{id}/ and the toggles: a contact the user may not see is null. */
export const domainAnswerSchema = z.object({
  domain: domainViewSchema,
  changes: z.array(registryChangeSchema),
  ...(Object.fromEntries(CONTACT_TYPES.map((type) => [type, domainContactSchema.nullable()])) as Record<
    ContactType,
    z.ZodNullable<typeof domainContactSchema>
  >),
});
export type DomainAnswer = z.infer<typeof domainAnswerSchema>;

/** RFC 5731 §3.2.4 trStatus, or `none` when the domain was never transferred. */
export const TRANSFER_STATUSES = [
  'none',
  'pending',
  'clientApproved',
  'clientRejected',
  'clientCancelled',
  'serverApproved',
  'serverCancelled',
] as const;
export type TransferStatusView = (typeof TRANSFER_STATUSES)[number];

/**
 * A domain's transfer as the registry reports it: `in` when this panel asked for it, `out` when
 * another registrar did (then `approveAt` is when the registry approves it unless answered).
 */
export const transferViewSchema = z.object({
  direction: z.enum(['in', 'out']).nullable(),
  status: z.enum(TRANSFER_STATUSES),
  requestedBy: z.string(),
  requestedAt: z.number(),
  /** While pending: when the registry approves it on its own; once ended: when it ended. */
  approveAt: z.number(),
  expireTS: z.number().nullable(),
  heldBy: z.string().nullable(),
  transferIn: z.boolean(),
  /** This panel's transfer change still on its way (queued, awaiting the registry) or refused. */
  change: registryChangeSchema.nullable(),
});
export type TransferView = z.infer<typeof transferViewSchema>;

export const glueRecordSchema = z.object({ id: z.number(), name: z.string(), ip: z.string(), ipv6: z.string() });
export type GlueRecord = z.infer<typeof glueRecordSchema>;

export const dnssecRecordSchema = z.object({
  id: z.number(),
  type: z.enum(DNSSEC_TYPES),
  keytag: z.number(),
  algorithm: z.number(),
  digesttype: z.number().nullable(),
  digest: z.string(),
  flags: z.number().nullable(),
  protocols: z.number().nullable(),
  /** Placed by the panel for the zone it signs: withdrawn by turning DNSSEC off, not by hand. */
  managed: z.boolean().optional(),
});
export type DnssecRecord = z.infer<typeof dnssecRecordSchema>;

export const dnsInitSchema = z.object({
  domainDNSs: z.array(z.string()),
  defaultDNSs: z.array(z.string()),
  hasService: z.boolean(),
  mode: z.enum(DNS_MODES),
});
export type DnsInit = z.infer<typeof dnsInitSchema>;

/** A code table as JSON carries it: the numeric codes become the keys' text. */
const codeTable = z.record(z.string(), z.string());
export const dnssecInitSchema = z.object({
  type: z.enum(DNSSEC_TYPES),
  algorithms: codeTable,
  digestTypes: codeTable,
  flags: codeTable,
  protocols: codeTable,
});
export type DnssecInit = z.infer<typeof dnssecInitSchema>;

export const optionSchema = z.object({ key: z.string(), name: z.string() });
export type Option = z.infer<typeof optionSchema>;

export const countryLookupAnswerSchema = z.object({
  selected: z.object({ country: z.string(), state: z.string(), city: z.string(), postalCode: z.string() }),
  names: z.object({ state: z.string(), city: z.string() }),
  country: z.record(z.string(), z.string()),
  states: z.array(optionSchema),
  cities: z.array(optionSchema),
  postalCodes: z.array(z.string()),
  /** The chosen country's postal-code format: whether it is known and, when a code was sent, whether the code follows it. */
  postalCode: z.object({ known: z.boolean(), valid: z.boolean().nullable() }),
});
export type CountryLookup = z.infer<typeof countryLookupAnswerSchema>;
