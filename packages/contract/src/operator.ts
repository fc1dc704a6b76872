/** The operator API (decision 037): what a billing system sends and reads, under /operator/. */
import { z } from 'zod';
import { requiredLine, singleLine } from './strings.ts';

/** What an operator token may do: provision accounts, run domain operations, manage webhooks. */
export const OPERATOR_SCOPES = ['provision', 'domains', 'webhooks'] as const;
export type OperatorScope = (typeof OPERATOR_SCOPES)[number];

/** Operator tokens start with their own prefix: a customer token is never mistaken for one, nor the reverse. */
export const OPERATOR_TOKEN_PREFIX = 'ato_';
export const OPERATOR_TOKEN_PATTERN = /^ato_[A-Za-z0-9_-]{43}$/;

/** The header a billing system sends with a write so that a retry never does it twice. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Printable ASCII, up to 255 characters (what the common billing systems generate fits). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The events a webhook endpoint may ask for. */
export const WEBHOOK_EVENTS = [
  'service.suspended',
  'service.unsuspended',
  'service.terminated',
  'job.failed',
  'domain.renewed',
  'domain.expiring',
  'domain.transferred',
  'domain.restored',
  'certificate.renewal_failing',
  'quota.nearly_full',
  'backup.failed',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Calls per operator token and minute, shared by every process: a billing system's runaway loop cannot flood the panel. */
export const OPERATOR_LIMITS = { perMinute: 1200, maxGraceDays: 365 } as const;

/** The headers of a delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'atalaya-signature';
export const WEBHOOK_EVENT_HEADER = 'atalaya-event';

const realm = requiredLine(253);
const username = requiredLine(64);
const reference = requiredLine(253);
const password = z.string().min(1).max(200).optional();

export const operatorRealmSchema = z.object({ realm });
export const operatorUserSchema = z.object({ realm, username });
export const operatorUserCreateSchema = z.object({ realm, username, password });
export const operatorPasswordSchema = z.object({ realm, username, password });
export const operatorItemSchema = z.object({ realm, reference });
/** Days between the termination call and the cleaning of every backend; the item (or realm) is suspended meanwhile. */
const graceDays = z.number().int().min(0).max(OPERATOR_LIMITS.maxGraceDays).default(0);
export const operatorRealmDeleteSchema = z.object({ realm, graceDays });
export const operatorItemDeleteSchema = z.object({ realm, reference, graceDays });
export const operatorItemCreateSchema = z.object({
  realm,
  reference,
  domain: z.boolean().optional(),
  service: z.enum(['normal', 'parking']).optional(),
  mail: z.boolean().optional(),
  /** YYYY-MM-DD; a year from now when absent. */
  expires: z.iso.date().optional(),
});
export const operatorGrantSchema = z.object({
  realm,
  username,
  reference,
  /** As the CLI's grant: `all=write` or `domain=read,service_ftp=write`. */
  areas: requiredLine(2000),
});
const amount = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional();
export const operatorLimitsSchema = z.object({
  realm,
  reference,
  /** Bytes. */
  spaceWeb: amount,
  traffic: amount,
  databases: amount,
  spaceDatabases: amount,
});

export const operatorContactSchema = z.object({
  isOrg: z.boolean(),
  orgName: singleLine(255).default(''),
  firstName: requiredLine(255),
  lastName: singleLine(255).default(''),
  identNumber: singleLine(64).default(''),
  email: z.email(),
  /** E.164 as EPP writes it: +CC.NUMBER. */
  phone: z.string().regex(/^\+\d{1,3}\.\d{4,14}$/),
  address: requiredLine(255),
  postalCode: singleLine(16).default(''),
  city: requiredLine(255),
  cityKey: singleLine(64).default(''),
  state: singleLine(255).default(''),
  stateKey: singleLine(64).default(''),
  /** ISO 3166-1 alpha-2. */
  country: z.string().regex(/^[A-Z]{2}$/),
});
export const operatorDomainCheckSchema = z.object({ name: requiredLine(253) });
export const operatorDomainRegisterSchema = z.object({
  realm,
  name: requiredLine(253),
  /** Years until the first expiry. */
  years: z.number().int().min(1).max(10).default(1),
  /** The registrant; admin, billing and tech default to it. */
  registrant: operatorContactSchema,
  admin: operatorContactSchema.optional(),
  billing: operatorContactSchema.optional(),
  tech: operatorContactSchema.optional(),
  /** Empty: the panel's own name servers. */
  nameServers: z.array(requiredLine(253)).max(13).default([]),
});
export const operatorDomainRenewSchema = z.object({
  name: requiredLine(253),
  years: z.number().int().min(1).max(10).default(1),
  /** YYYY-MM-DD: the expiry the billing system renews from; a renewal sent again finds a later one and is refused. */
  curExpDate: z.iso.date(),
});
export const operatorWebhookCreateSchema = z.object({
  url: z.url({ protocol: /^https?$/ }).max(2000),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1),
});
export const operatorWebhookParams = z.object({ webhookId: z.string().max(20) });

export const operatorCreatedSchema = z.object({ id: z.number(), name: z.string() });
export const operatorUserAnswerSchema = z.object({
  id: z.number(),
  username: z.string(),
  /** Present only when the panel generated the password: shown this once. */
  password: z.string().optional(),
});
export const operatorDoneSchema = z.object({ done: z.literal(true) });
export const operatorItemAnswerSchema = z.object({ id: z.number(), reference: z.string(), suspended: z.boolean() });
export const operatorTerminationSchema = z.object({
  /** The realm's name, or the item's reference. */
  name: z.string(),
  /** Unix seconds from which its backends are cleaned and it is deleted. */
  terminateAt: z.number(),
});
export const operatorRealmStateSchema = z.object({ name: z.string(), suspended: z.boolean() });
export const operatorFactorsResetSchema = z.object({ removed: z.number() });
export const operatorDomainCheckAnswerSchema = z.object({ name: z.string(), available: z.boolean() });
export const operatorDomainAnswerSchema = z.object({ id: z.number(), name: z.string(), expireAt: z.number() });
/** A domain held at another registrar, moved here with the auth code its registrant got from it. */
export const operatorDomainTransferSchema = z.object({ realm, name: requiredLine(253), authCode: requiredLine(255) });
/** The item made for it and the registry change carrying the request (pending until the registry's outcome). */
export const operatorDomainTransferAnswerSchema = z.object({ id: z.number(), name: z.string(), change: z.number() });
export const operatorWebhookSchema = z.object({
  id: z.number(),
  url: z.string(),
  events: z.array(z.string()),
  createdAt: z.number(),
});
export const operatorWebhookCreatedSchema = operatorWebhookSchema.extend({
  /** The signing secret, shown this once. */
  secret: z.string(),
});
export const operatorWebhookListSchema = z.object({ webhooks: z.array(operatorWebhookSchema) });
