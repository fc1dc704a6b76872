import { z } from 'zod';
import { LIMITS } from '../settings.ts';
import { requiredLine, requiredMultiLine, singleLine } from '../strings.ts';
import { CONTACT_MODES, DNSSEC_FLAGS, DNSSEC_PROTOCOLS, OFFERED_ALGORITHMS, OFFERED_DIGEST_TYPES, OTHER_CONTACT_TYPES } from './codes.ts';
import { isPostalCode, POSTAL_CODE_MAX } from './postalCodes.ts';
import { isCountryCode, isDigest, isIPv4, isIPv6, isPhone, isPublicKey, toHostName } from './validators.ts';

/**
 * One schema per payload of docs/behaviour/shell-session-domains.md#calls, used by the forms and by the routes. Form fields arrive as
 * text; a message that is a key (`domain.…`) names the translated error shown under the field.
 */

// `abort` keeps one message per field: an empty field is "required", not also "invalid".
const text = requiredLine;
const choice = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: (issue) => (issue.input === undefined ? 'validation.required' : 'validation.invalid_option') });
const optionalText = (max: number) => singleLine(max).optional().default('');
const hostName = z
  .string()
  .max(300)
  .transform((value, ctx) => {
    const host = toHostName(value);
    if (host === null) ctx.addIssue({ code: 'custom', message: value.trim() ? 'validation.hostname' : 'validation.required' });
    return host ?? '';
  });
const ipv4 = text(15).refine(isIPv4, 'validation.ipv4');
const ipv6 = z
  .string()
  .trim()
  .max(45)
  .optional()
  .default('')
  .refine((v) => v === '' || isIPv6(v), 'validation.ipv6')
  .transform((v) => v.toLowerCase());
/** A whole number sent as form text, restricted to the codes on offer. */
const code = (allowed: readonly number[]) =>
  text(5)
    .regex(/^\d{1,5}$/, { message: 'validation.number', abort: true })
    .transform(Number)
    .refine((n) => allowed.includes(n), 'validation.invalid_option');

export const dnsEditSchema = z
  .object({
    'default-ns': choice(['0', '1']),
    dns: z.array(z.string().max(300)).max(50).optional().default([]),
    /** '1': change although a published DS has no key on the new servers (they were named in a refusal first). */
    confirm: choice(['0', '1']).optional(),
  })
  .transform((value, ctx) => {
    const defaultNs = value['default-ns'] === '1';
    const confirm = value.confirm === '1';
    const servers: string[] = [];
    /** The form row of each server, so that a refusal can be shown under its row. */
    const rows: number[] = [];
    if (defaultNs) return { defaultNs, servers, rows, confirm };
    const filled = value.dns.map((v, index) => ({ v: v.trim(), index })).filter((e) => e.v !== '');
    if (filled.length < LIMITS.dnsServersMin) ctx.addIssue({ code: 'custom', path: ['dns'], message: 'domain.ns_min' });
    if (filled.length > LIMITS.dnsServersMax) ctx.addIssue({ code: 'custom', path: ['dns'], message: 'domain.ns_max' });
    if (filled.length > LIMITS.dnsServersMax) return { defaultNs, servers, rows, confirm };
    for (const { v, index } of filled) {
      const host = toHostName(v);
      if (host === null) ctx.addIssue({ code: 'custom', path: ['dns', index], message: 'validation.hostname' });
      else if (servers.includes(host)) ctx.addIssue({ code: 'custom', path: ['dns', index], message: 'domain.ns_duplicate' });
      else {
        servers.push(host);
        rows.push(index);
      }
    }
    return { defaultNs, servers, rows, confirm };
  });
export type DnsEditInput = z.input<typeof dnsEditSchema>;

export const glueCreateSchema = z.object({ name: hostName, ip: ipv4, ipv6 });
export const glueSaveSchema = z.object({ ip: ipv4, ipv6 });
export type GlueCreateInput = z.input<typeof glueCreateSchema>;

const keytag = text(5)
  .regex(/^\d{1,5}$/, { message: 'validation.number', abort: true })
  .transform(Number)
  .pipe(z.number().int().min(0).max(65535));
const algorithm = code(OFFERED_ALGORITHMS);

export const dnssecDigestSchema = z
  .object({
    type: z.literal('digest'),
    keytag,
    algorithm,
    digesttype: code(OFFERED_DIGEST_TYPES),
    digest: text(200),
  })
  .superRefine((v, ctx) => {
    const offered = (OFFERED_DIGEST_TYPES as readonly number[]).includes(v.digesttype);
    if (offered && !isDigest(v.digest, v.digesttype)) ctx.addIssue({ code: 'custom', path: ['digest'], message: 'domain.digest_invalid' });
  })
  .transform((v) => ({ ...v, digest: v.digest.toUpperCase() }));

export const dnssecPubkeySchema = z.object({
  type: z.literal('pubkey'),
  flags: code(Object.keys(DNSSEC_FLAGS).map(Number)),
  protocols: code(Object.keys(DNSSEC_PROTOCOLS).map(Number)),
  algorithm,
  // The public key travels in the digest field of the form (key data needs flags, protocol, algorithm and the key).
  digest: requiredMultiLine(4096)
    .transform((v) => v.replace(/\s+/g, ''))
    .refine(isPublicKey, 'domain.pubkey_invalid'),
});

export const dnssecCreateSchema = z.discriminatedUnion('type', [dnssecDigestSchema, dnssecPubkeySchema], {
  error: 'validation.invalid_option',
});
export type DnssecCreate = z.output<typeof dnssecCreateSchema>;

export const contactFieldsSchema = z.object({
  isOrg: choice(['0', '1']),
  orgName: optionalText(100),
  firstName: text(100),
  lastName: text(100),
  identNumber: text(20).regex(/^[A-Za-z0-9][A-Za-z0-9./ -]*$/, 'domain.ident_invalid'),
  email: text(254).pipe(z.email()),
  phone: text(20).refine(isPhone, 'domain.phone_invalid'),
  country: text(2)
    .transform((v) => v.toUpperCase())
    .refine(isCountryCode, 'domain.country_invalid'),
  state: text(100),
  city: text(100),
  // Checked against the country's own format below (postalRule).
  postalCode: text(POSTAL_CODE_MAX),
  address: text(200),
});

/** Organisation name only, and always, for an organisation; the postal code in its country's format. */
function orgRule<T extends { isOrg: '0' | '1'; orgName: string; postalCode: string; country: string }>(v: T, ctx: z.RefinementCtx) {
  if (v.isOrg === '1' && v.orgName === '') ctx.addIssue({ code: 'custom', path: ['orgName'], message: 'validation.required' });
  if (!isPostalCode(v.postalCode, v.country)) ctx.addIssue({ code: 'custom', path: ['postalCode'], message: 'domain.postal_code_invalid' });
}

/**
 * The registrant. A change of owner (another name, organisation or e-mail) needs `confirmOwnerChange`
 * '1', and locks transfers for the TLD's days unless `transferLockOptOut` is '1'.
 */
export const ownerSaveSchema = contactFieldsSchema
  .extend({
    type: z.literal('registrant').optional(),
    confirmOwnerChange: choice(['0', '1']).optional(),
    transferLockOptOut: choice(['0', '1']).optional(),
  })
  .superRefine(orgRule);
export const contactsSaveSchema = contactFieldsSchema
  .extend({ type: choice(OTHER_CONTACT_TYPES), mode: choice(CONTACT_MODES) })
  .superRefine(orgRule);
export type ContactFields = z.output<typeof contactFieldsSchema>;
export type ContactSaveInput = z.input<typeof contactsSaveSchema>;

export const countryLookupSchema = z.object({
  country: optionalText(100),
  state: optionalText(100),
  city: optionalText(100),
  postal_code: optionalText(20),
});

/**
 * A renewal: its years (the range is the registry's policy, checked by the server with its limit in the message), and the expiry date the user saw (EPP's curExpDate, YYYY-MM-DD), so that
 * a renewal sent twice is refused the second time instead of adding its years twice.
 */
export const renewSchema = z.object({
  years: text(2)
    .regex(/^\d{1,2}$/, { message: 'validation.number', abort: true })
    .transform(Number),
  curExpDate: text(10).regex(/^\d{4}-\d{2}-\d{2}$/, 'validation.invalid'),
});
/** `auto`: renewed for a year some days before expiry; `expire`: left to lapse. */
export const RENEWAL_MODES = ['auto', 'expire'] as const;
export type RenewalMode = (typeof RENEWAL_MODES)[number];
export const renewalModeSchema = z.object({ mode: choice(RENEWAL_MODES) });

export type RenewInput = z.input<typeof renewSchema>;

/** The auth code the domain's current registrar gave the registrant, to move the domain here. */
export const transferRequestSchema = z.object({ authCode: text(255) });
export type TransferRequestInput = z.input<typeof transferRequestSchema>;
