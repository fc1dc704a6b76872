import { z } from 'zod';
import { backendShape } from '../service.ts';
import { ACME_STATUSES, ACME_STEPS, APP_CATEGORIES, APP_TYPES, CERT_SOURCES, INSTALL_INPUT_TYPES, REDIRECT_TYPES } from './codes.ts';

/** What the panel read from an uploaded certificate; shown as text, never as HTML. */
export const certificateInfoSchema = z.object({
  subject: z.string(),
  issuer: z.string(),
  names: z.array(z.string()),
  validFrom: z.number(),
  validTo: z.number(),
  fingerprint: z.string(),
});
export type CertificateInfo = z.infer<typeof certificateInfoSchema>;

export const subdomainSchema = z.object({
  id: z.number(),
  /** The name under the service's reference, e.g. `blog`. */
  subdominio: z.string(),
  referencePunycode: z.string(),
  directorio: z.string(),
  eliminable: z.boolean(),
  /** The private key is never sent back: `key` is always '' and `hasKey` tells whether one is stored. */
  ssl: z.object({
    enabled: z.boolean(),
    cert: z.object({ cert: z.string(), key: z.string(), ca: z.string() }),
    hasKey: z.boolean(),
    info: certificateInfoSchema.nullable(),
    source: z.enum(CERT_SOURCES),
    /** The free certificate (ACME): switched on, with the wildcard, and its issuance as the dialog follows it. */
    acme: z.object({
      enabled: z.boolean(),
      wildcard: z.boolean(),
      status: z.enum(ACME_STATUSES),
      /** The step the issuance is in (or failed in); null when no issuance ran. */
      step: z.enum(ACME_STEPS).nullable(),
      /** The failure's reason in the user's language (the ACME server's own words when unknown). */
      error: z.string().nullable(),
      /** When the next renewal is due (Unix seconds), null when none is planned. */
      renewAt: z.number().nullable(),
    }),
  }),
  redirections: z.number(),
  /** Where the site's host stands on the web server: its latest apply (a failed one can be retried). */
  ...backendShape,
});
export type Subdomain = z.infer<typeof subdomainSchema>;

export const redirectionSchema = z.object({
  id: z.number(),
  /** Host and path shown as the origin, e.g. `blog.example.com/old`. */
  origin: z.string(),
  recurso: z.string(),
  url: z.string(),
  redirType: z.enum(REDIRECT_TYPES),
  iframeTitle: z.string(),
  iframeDescription: z.string(),
  iframeKeywords: z.string(),
  /** The site's name, or '' for the service's bare domain. */
  subdominio: z.string(),
  eliminable: z.boolean(),
});
export type Redirection = z.infer<typeof redirectionSchema>;

export const installInputOptionSchema = z.object({ value: z.string(), label: z.string() });
export type InstallInputOption = z.infer<typeof installInputOptionSchema>;

export const installInputSchema = z.object({
  name: z.string(),
  type: z.enum(INSTALL_INPUT_TYPES),
  /** A secret typed by the user (shown as a password field). */
  password: z.boolean(),
  label: z.string(),
  value: z.string(),
  checked: z.boolean(),
  options: z.array(installInputOptionSchema),
  isRequired: z.boolean(),
});
export type InstallInput = z.infer<typeof installInputSchema>;

export const installGroupSchema = z.object({ title: z.string(), inputs: z.array(installInputSchema) });
export type InstallGroup = z.infer<typeof installGroupSchema>;

export const hostingApplicationSchema = z.object({
  id: z.number(),
  fullName: z.string(),
  softName: z.string(),
  version: z.string(),
  category: z.enum(APP_CATEGORIES),
  type: z.enum(APP_TYPES),
  description: z.string(),
  size: z.number(),
  featured: z.boolean(),
  isBBDDApplication: z.boolean(),
  /** SPDX expression of its licence. */
  licence: z.string(),
  /** false when the provider has not configured its package: shown, not installable. */
  available: z.boolean(),
  installConfig: z.array(installGroupSchema),
});
export type HostingApplication = z.infer<typeof hostingApplicationSchema>;

export const INSTALL_STATUSES = ['pending', 'running', 'done', 'failed'] as const;
export type InstallStatus = (typeof INSTALL_STATUSES)[number];

export const installationSchema = z.object({
  id: z.number(),
  applicationID: z.number(),
  fullName: z.string(),
  subdomainID: z.number(),
  url: z.string(),
  status: z.enum(INSTALL_STATUSES),
  progress: z.number(),
  /** The installer's message when it failed. */
  error: z.string().nullable(),
});
export type Installation = z.infer<typeof installationSchema>;
