/** Schemas, code tables and limits of the service area, shared by the web forms and the routes. */
import { z } from 'zod';
import { LIMITS } from './settings.ts';
import { multiLine, singleLine } from './strings.ts';

/** default, 5.6, 7.0–7.4, 8.0–8.4. */
export const PHP_VERSIONS = ['default', '5.6', '7.0', '7.1', '7.2', '7.3', '7.4', '8.0', '8.1', '8.2', '8.3', '8.4'] as const;
export type PhpVersion = (typeof PHP_VERSIONS)[number];

const versionParts = (v: string) => v.split('.').map((n) => Number(n) || 0);
export function compareVersions(a: string, b: string): number {
  const [pa, pb] = [versionParts(a), versionParts(b)];
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The PHP options a service offers: default plus every version at or above its minimum. */
export const phpOptions = (min: string): PhpVersion[] => PHP_VERSIONS.filter((v) => v === 'default' || compareVersions(v, min) >= 0);

// ---- generated passwords (14 characters mixing lower, upper, digits, symbols)

export const PASSWORD_SETS = {
  lower: 'abcdefghijkmnopqrstuvwxyz',
  upper: 'ABCDEFGHJKLMNPQRSTUVWXYZ',
  digits: '23456789',
  // No quote, backslash, space or comma: the password survives forms, SQL tools and CSV exports.
  symbols: '!#$%&*+-.:;=?@_',
} as const;

const randomIndex = (n: number) => {
  const buf = new Uint32Array(1);
  // Rejection sampling keeps every character equally likely.
  const limit = Math.floor(0x1_0000_0000 / n) * n;
  do globalThis.crypto.getRandomValues(buf);
  while (buf[0] >= limit);
  return buf[0] % n;
};

/** A password with at least one character of each set, shuffled; 14 characters by default. */
export function generatePassword(length: number = LIMITS.generatedPasswordLength): string {
  const sets = Object.values(PASSWORD_SETS);
  const all = sets.join('');
  const chars = sets.map((s) => s[randomIndex(s.length)]);
  while (chars.length < length) chars.push(all[randomIndex(all.length)]);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomIndex(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}

// ---- usage formatting (1024-based units, percent with two decimals, zeros trimmed)

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

export const trimDecimals = (value: number, digits = 2) => {
  const fixed = value.toFixed(digits);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
};

export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${trimDecimals(value)} ${UNITS[unit]}`;
}

/** used / limit as a percent string ("12.35", "50", "0"); "0" when there is no limit. */
export const usagePercent = (used: number, limit: number) => (limit > 0 ? trimDecimals((used / limit) * 100) : '0');

// ---- names, folders and addresses

export const MAIL_LOCAL = /^[a-z0-9](?:[a-z0-9_-]|\.(?!\.)){0,62}[a-z0-9]$|^[a-z0-9]$/;
export const FTP_USER = /^[a-z0-9][a-z0-9_-]*$/;
// A plain e-mail check, the same on input, on blur and on the server.
export const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export const splitTargets = (value: string) =>
  value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/**
 * A folder inside the service's web root, as stored ("public_html/blog", "" for the root). A
 * leading slash means the web root; "..", NUL, backslashes and anything outside a safe set are
 * refused, so the path can never leave the root. Null when invalid.
 */
export function normaliseFolder(value: string): string | null {
  if (value.length > 255 || !/^[A-Za-z0-9._\-/ ]*$/.test(value)) return null;
  const parts = value.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..' || p.trim() !== p)) return null;
  return parts.join('/');
}

// ---- payloads

const password = z
  .string()
  .min(1, { message: 'validation.required', abort: true })
  .min(8, 'service.password_short')
  .max(64)
  .regex(/^[\x21-\x7e]+$/, 'service.password_chars');

export const PasswordForm = z.object({ password });
export const PhpForm = z.object({ phpVersion: z.enum(PHP_VERSIONS) });
export const WebConstructorLoginForm = z.object({
  subdomain: z
    .string()
    .min(1)
    .max(253)
    .regex(/^\*$|^[a-z0-9.-]+$/, 'validation.invalid'),
});
export const MailAccountCreateForm = z.object({
  name: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, { message: 'validation.required', abort: true })
    .max(64)
    .regex(MAIL_LOCAL, 'service.mail_name_invalid'),
  password,
});
const targets = z
  .string()
  .max(4000)
  .refine((v) => splitTargets(v).length > 0, 'service.alias_targets_required')
  .refine((v) => splitTargets(v).every((t) => EMAIL.test(t)), 'validation.email')
  .transform((v) => splitTargets(v).map((t) => t.toLowerCase()));
export const AliasCreateForm = z.object({
  // The local part may be empty: a catch-all for the whole domain.
  name: z
    .string()
    .trim()
    .toLowerCase()
    .max(64)
    .refine((v) => v === '' || MAIL_LOCAL.test(v), 'service.mail_name_invalid'),
  target: targets,
});
export const AliasSaveForm = z.object({ target: targets });

/** A day as the date input sends it (YYYY-MM-DD), or empty for none. */
const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));
const day = z
  .string()
  .trim()
  .refine((v) => v === '' || isDay(v), 'service.date_invalid');
/** A checkbox: ticked when it arrives as "1", "true" or "on"; absent or anything else is off. */
const ticked = z
  .enum(['1', 'true', 'on', '', '0', 'false'], { error: 'validation.invalid' })
  .optional()
  .transform((v) => v === '1' || v === 'true' || v === 'on');

/**
 * What a mail account does with the mail it receives: its quota, an autoresponder (subject and
 * text required when on; the end not before the start) and forwarding (addresses, empty for none).
 */
export const MailDeliveryForm = z
  .object({
    quotaMb: z.coerce
      .number({ error: 'service.quota_range' })
      .int('service.quota_range')
      .min(1, 'service.quota_range')
      .max(LIMITS.mailQuotaMbMax, 'service.quota_range'),
    autoreply: ticked,
    autoreplySubject: singleLine(LIMITS.autoreplySubjectMax),
    autoreplyText: multiLine(LIMITS.autoreplyTextMax),
    autoreplyStart: day,
    autoreplyEnd: day,
    autoreplyDays: z.coerce
      .number({ error: 'service.autoreply_days' })
      .int('service.autoreply_days')
      .min(1, 'service.autoreply_days')
      .max(LIMITS.autoreplyDaysMax, 'service.autoreply_days'),
    forwardTo: z
      .string()
      .max(4000)
      .refine((v) => splitTargets(v).every((t) => EMAIL.test(t)), 'validation.email')
      .transform((v) => splitTargets(v).map((t) => t.toLowerCase())),
    forwardKeep: ticked,
  })
  .superRefine((v, ctx) => {
    if (!v.autoreply) return;
    if (!v.autoreplySubject) ctx.addIssue({ code: 'custom', path: ['autoreplySubject'], message: 'validation.required' });
    if (!v.autoreplyText) ctx.addIssue({ code: 'custom', path: ['autoreplyText'], message: 'validation.required' });
    if (isDay(v.autoreplyStart) && isDay(v.autoreplyEnd) && v.autoreplyEnd < v.autoreplyStart)
      ctx.addIssue({ code: 'custom', path: ['autoreplyEnd'], message: 'service.autoreply_end_before_start' });
  });
const folder = z
  .string()
  .min(1, { message: 'validation.required', abort: true })
  .refine((v) => normaliseFolder(v) !== null, 'service.folder_invalid')
  .transform((v) => normaliseFolder(v) ?? '');
export const FtpCreateForm = z.object({
  ftpUser: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, { message: 'validation.required', abort: true })
    .max(LIMITS.ftpUserMax)
    .regex(FTP_USER, 'service.ftp_user_invalid'),
  password,
  folder,
});
export const FtpSaveForm = z.object({ folder });
export const FtpLoginQuery = z.object({ initialDirectory: singleLine(255).optional() });
export const DatabaseCreateForm = z.object({ password });

// ---- answers

/** Where a change stands on its backend: applied, waiting in the outbox, failed, or being removed. */
export const BACKEND_STATES = ['ready', 'pending', 'failed', 'deleting'] as const;
export type BackendState = (typeof BACKEND_STATES)[number];
/** The state and last job of a row that a backend applies; the sites and the DNS zone carry it too. */
export const backendShape = {
  state: z.enum(BACKEND_STATES),
  job: z.number().nullable(),
  /** A pending change whose hosting node's agent is not connected: that node's name ("waiting for web1"). */
  waitingFor: z.string().optional(),
};
const backend = backendShape;

const usagePairSchema = z.object({ used: z.number(), limit: z.number() });
export type UsagePair = z.infer<typeof usagePairSchema>;

export const serviceViewSchema = z.object({
  id: z.number(),
  frontendDbID: z.number(),
  reference: z.string(),
  isRedirAndParking: z.boolean(),
  usage: z.object({ spaceWeb: usagePairSchema, traffic: usagePairSchema, BBDD: usagePairSchema, spaceBbdd: usagePairSchema }),
  /** Unix seconds of the last measurement of web space, mailboxes and databases; null before the first. */
  usageMeasuredTS: z.number().nullable(),
  defaultPHPVersion: z.string(),
  phpversion: z.string(),
  phpminversion: z.string(),
  phpOptions: z.array(z.string()),
  parkingActive: z.boolean(),
  ftpServer: z.string(),
  databaseServer: z.string(),
  webFtp: z.boolean(),
  permissions: z.record(z.string(), z.string()),
  /**
   * The service's latest backup, when it failed for good (its time, ISO 8601, and reason: a message
   * key or restic's words): the line `backups.failed_line` on the main view. Absent for a caller
   * who cannot see the service's backups.
   */
  backupFailed: z.object({ time: z.string(), reason: z.string() }).nullable().optional(),
  ...backend,
});
export type ServiceView = z.infer<typeof serviceViewSchema>;

/** An out-of-office reply (Sieve `vacation`): at most one per sender every `days` days, between its dates. */
export const autoresponderSchema = z.object({
  subject: z.string(),
  text: z.string(),
  /** YYYY-MM-DD, or null for open-ended. */
  start: z.string().nullable(),
  end: z.string().nullable(),
  days: z.number(),
});
export type Autoresponder = z.infer<typeof autoresponderSchema>;

export const mailAccountSchema = z.object({
  id: z.number(),
  user: z.string(),
  name: z.string(),
  quota: z.number(),
  usage: z.number(),
  autoresponder: autoresponderSchema.nullable(),
  /** Where its mail is also (keepCopy) or only sent; null for nowhere. */
  forward: z.object({ targets: z.array(z.string()), keepCopy: z.boolean() }).nullable(),
  eliminable: z.boolean(),
  ...backend,
});
export type MailAccount = z.infer<typeof mailAccountSchema>;

export const mailAliasSchema = z.object({
  id: z.number(),
  alias: z.string(),
  referencePunycode: z.string(),
  name: z.string(),
  targets: z.array(z.string()),
  eliminable: z.boolean(),
  ...backend,
});
export type MailAlias = z.infer<typeof mailAliasSchema>;

/** A mail domain's DKIM key and the TXT record it publishes (strings of at most 255 bytes). */
export const dkimKeySchema = z.object({
  selector: z.string(),
  algorithm: z.enum(['rsa', 'ed25519']),
  /** published: in DNS, not yet signing; signing; retired: still in DNS for mail already sent. */
  state: z.enum(['published', 'signing', 'retired']),
  /** Unix seconds when it starts signing (published) or leaves DNS (retired); null while signing. */
  nextAt: z.number().nullable(),
  record: z.object({ name: z.string(), type: z.literal('TXT'), strings: z.array(z.string()) }),
});
export type DkimKey = z.infer<typeof dkimKeySchema>;

/** What each record a mail domain needs is for (decision 045). */
export const MAIL_PURPOSES = ['mx', 'host', 'spf', 'dkim', 'dmarc', 'mtasts', 'mtastshost', 'tlsrpt'] as const;
export type MailPurpose = (typeof MAIL_PURPOSES)[number];
/** The health card's checks, in the order it shows them. */
export const MAIL_CHECKS = ['mx', 'spf', 'dkim', 'dmarc', 'mtasts'] as const;
export type MailCheck = (typeof MAIL_CHECKS)[number];

/** A record as the world should see it, and what the world sees: ok, missing, or a different value of that kind. */
export const mailRecordSchema = z.object({
  purpose: z.enum(MAIL_PURPOSES),
  /** The full name, without the final dot. */
  name: z.string(),
  type: z.enum(['MX', 'A', 'AAAA', 'TXT']),
  priority: z.number().nullable(),
  /** The value as one text; a TXT's character-strings of at most 255 bytes in `strings`. */
  value: z.string(),
  strings: z.array(z.string()),
  live: z.enum(['ok', 'missing', 'different', 'unknown']),
});
export type MailRecordView = z.infer<typeof mailRecordSchema>;

/** One finding of the mail health card, in the caller's language with its fix (empty when all is well). */
export const mailFindingSchema = z.object({
  check: z.enum(MAIL_CHECKS),
  code: z.string(),
  level: z.enum(['ok', 'warning', 'error']),
  params: z.record(z.string(), z.string()),
  text: z.string(),
  fix: z.string(),
});
export type MailFinding = z.infer<typeof mailFindingSchema>;

export const mailHealthSchema = z.object({
  domain: z.string(),
  /** The panel hosts the zone: the records are published by it; else the customer copies them. */
  hosted: z.boolean(),
  records: z.array(mailRecordSchema),
  findings: z.array(mailFindingSchema),
  /** The MTA-STS policy to serve at https://mta-sts.<domain>/.well-known/mta-sts.txt, when the provider turned it on. */
  mtaStsPolicy: z.string().nullable(),
  /** Whether the panel serves that policy itself, from the domain's `mta-sts` site. */
  mtaStsServed: z.boolean(),
});
export type MailHealth = z.infer<typeof mailHealthSchema>;

export const mailConfigSchema = z.object({
  reference: z.string(),
  imapSsl: z.string(),
  smtpSsl: z.string(),
  imap: z.string(),
  smtp: z.string(),
});
export type MailConfig = z.infer<typeof mailConfigSchema>;

export const ftpUserSchema = z.object({
  id: z.number(),
  user: z.string(),
  name: z.string(),
  directorio: z.string(),
  eliminable: z.boolean(),
  ...backend,
});
export type FtpUser = z.infer<typeof ftpUserSchema>;

/** The FTP screen's header: server, login suffix and the longest user name. */
export const ftpMainSchema = z.object({
  server: z.string(),
  reference: z.string(),
  suffix: z.string(),
  maxUser: z.number(),
  webFtp: z.boolean(),
});

export const databaseViewSchema = z.object({
  id: z.number(),
  bbdd: z.string(),
  user: z.string(),
  externalAccess: z.boolean(),
  createdTS: z.number(),
  /** Bytes, as last measured on the database server. */
  usage: z.number(),
  eliminable: z.boolean(),
  ...backend,
});
export type DatabaseView = z.infer<typeof databaseViewSchema>;

/** Form data that the SPA submits automatically: webmail, WebFTP, phpMyAdmin. */
export const autoFormSchema = z.object({
  target: z.string(),
  method: z.enum(['get', 'post']),
  action: z.string(),
  inputs: z.record(z.string(), z.string()),
});
export type AutoForm = z.infer<typeof autoFormSchema>;

export const errorLogLineSchema = z.object({ ts: z.number(), level: z.string(), message: z.string() });
export type ErrorLogLine = z.infer<typeof errorLogLineSchema>;
