import { z } from 'zod';
import { hasTextControl, multiLine, requiredLine, singleLine } from '../strings.ts';
import { REDIRECT_TYPES, SITES_LIMITS } from './codes.ts';

const required = requiredLine;
const optional = (max: number) => singleLine(max).default('');
/** A switch arrives as 1/0 (also true/false or on from a plain checkbox). */
const flag = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', ''])
  .default('0')
  .transform((v) => v === '1' || v === 'true' || v === 'on');
/** PEM fields keep their line breaks; trimmed so a trailing newline does not count as garbage. */
const pem = z
  .string()
  .max(SITES_LIMITS.pemMax)
  .default('')
  .refine((v) => !hasTextControl(v), 'validation.control_characters')
  .transform((v) => v.trim());
/** An optional positive id; '', '0' or absent mean none. */
const optionalId = z
  .union([
    z.literal(''),
    z.coerce
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1),
  ])
  .default('')
  .transform((v) => (v === '' || v === 0 ? null : v));

const sslFields = { SSLActive: flag, cert: pem, certkey: pem, certchain: pem };

export const subdomainCreateSchema = z.object({
  subDomain: required(SITES_LIMITS.siteNameMax),
  folder: required(SITES_LIMITS.folderMax),
  ...sslFields,
});
export type SubdomainCreateInput = z.input<typeof subdomainCreateSchema>;

export const subdomainSaveSchema = z.object({ folder: required(SITES_LIMITS.folderMax), ...sslFields });
export type SubdomainSaveInput = z.input<typeof subdomainSaveSchema>;

const redirectionFields = {
  urlRedir: required(SITES_LIMITS.urlMax),
  redirType: z.enum(REDIRECT_TYPES),
  iframeTitle: optional(SITES_LIMITS.iframeTitleMax),
  iframeDescription: multiLine(SITES_LIMITS.iframeDescriptionMax).default(''),
  iframeKeywords: optional(SITES_LIMITS.iframeKeywordsMax),
};

/** The free-certificate switch of the SSL dialog; the wildcard needs the site's DNS zone in the panel. */
export const acmeRequestSchema = z.object({ active: flag, wildcard: flag });
export type AcmeRequestInput = z.input<typeof acmeRequestSchema>;

export const redirectionCreateSchema = z.object({
  /** The site's name, or '' for the service's bare domain (the only choice of a parking service). */
  subDomain: optional(SITES_LIMITS.siteNameMax),
  recurso: optional(SITES_LIMITS.originMax),
  ...redirectionFields,
});
export type RedirectionCreateInput = z.input<typeof redirectionCreateSchema>;

export const redirectionSaveSchema = z.object(redirectionFields);
export type RedirectionSaveInput = z.input<typeof redirectionSaveSchema>;

/** The wizard's own fields; the config inputs travel beside them with INSTALL_INPUT_PREFIX. */
export const installAppSchema = z.looseObject({
  subdomainID: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1),
  applicationID: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1),
  mysqlID: optionalId,
  subpath: optional(SITES_LIMITS.subpathMax),
  /** Replace what the target folder holds; without it a folder with files is refused. */
  overwrite: flag,
});
export type InstallAppInput = z.input<typeof installAppSchema>;
