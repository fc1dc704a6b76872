import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { LifePolicy } from '../lifecycle.ts';

const absolute = z.string().refine((p) => path.isAbsolute(p) && !p.includes('\0'), 'an absolute path');

/**
 * `config.drivers.registry` of the epp driver. Unknown keys are refused, so that a misspelt
 * option stops the start instead of being ignored.
 */
export const eppOptionsSchema = z.strictObject({
  host: z.string().min(1),
  port: z.coerce.number().int().min(1).max(65535).default(700),
  /** RFC 5730 clIDType: 3–16 characters. */
  clientId: z.string().min(3).max(16),
  /** RFC 5730 pwType: 6–16 characters. */
  password: z.string().min(6).max(16),
  /** PEM files: the client certificate the registry knows the registrar by, its key, and the CA that signed the registry's certificate. */
  certFile: absolute,
  keyFile: absolute,
  caFile: absolute,
  /** Sessions kept open at once; registries cap them per registrar. */
  sessions: z.coerce.number().int().min(1).max(16).default(2),
  /** The registry's rate limit for this registrar; 0 for none. Commands over it wait their turn. */
  commandsPerMinute: z.coerce.number().int().min(0).default(0),
  /** A <hello> keeps an idle session open; registries end idle sessions after 10 minutes or more. */
  keepAliveSeconds: z.coerce.number().int().min(1).max(3600).default(300),
  /** How long one command may wait for its answer before the session is taken as lost. */
  timeoutSeconds: z.coerce.number().int().min(1).max(600).default(30),
  /** The first wait before reopening a lost session; it doubles up to a minute. */
  reconnectMs: z.coerce.number().int().min(1).max(60_000).default(1000),
  /** `create`: a changed registrant becomes a new contact object (registries that treat it as a trade). */
  registrantChange: z.enum(['update', 'create']).default('update'),
  /** How the registry takes name servers: host objects (RFC 5732), or host attributes with their glue addresses. */
  hostModel: z.enum(['objects', 'attributes']).default('objects'),
  /** Years a domain is created for, when the panel registers one the registry does not know. */
  periodYears: z.coerce.number().int().min(1).max(10).default(1),
  /** The registry's policy on renewals (the longest, in years) and its periods after expiry (RFC 3915), in days. */
  maxYears: z.coerce.number().int().min(1).max(10).default(10),
  graceDays: z.coerce.number().int().min(0).max(365).default(45),
  redemptionDays: z.coerce.number().int().min(0).max(365).default(30),
  pendingDeleteDays: z.coerce.number().int().min(0).max(365).default(5),
  /** The provider's own name servers, read by the domain area (default DNS mode). */
  nameServers: z.array(z.string().min(1)).min(2).optional(),
});

export type EppOptions = z.infer<typeof eppOptionsSchema>;

export interface EppSettings extends EppOptions {
  cert: Buffer;
  key: Buffer;
  ca: Buffer;
}

/** The validated options with the certificate files read: anything wrong stops the start, naming its key. */
export function eppSettings(raw: Record<string, unknown>): EppSettings {
  const parsed = eppOptionsSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => {
      const key = i.path.length ? i.path.join('.') : (i as { keys?: string[] }).keys?.join(', ');
      return `drivers.registry.${key}: ${i.message}`;
    });
    throw new Error(`epp registry driver options: ${issues.join('; ')}`);
  }
  const read = (key: 'certFile' | 'keyFile' | 'caFile') => {
    try {
      return readFileSync(parsed.data[key]);
    } catch (error) {
      throw new Error(`drivers.registry.${key}: cannot read ${parsed.data[key]} (${(error as NodeJS.ErrnoException).code ?? error})`);
    }
  };
  return { ...parsed.data, cert: read('certFile'), key: read('keyFile'), ca: read('caFile') };
}

/** The registry's periods, as the driver answers them before any of its code is loaded (drivers/lazy.ts). */
export const eppPolicy = (settings: EppSettings): LifePolicy => ({
  maxYears: settings.maxYears,
  graceDays: settings.graceDays,
  redemptionDays: settings.redemptionDays,
  pendingDeleteDays: settings.pendingDeleteDays,
});
