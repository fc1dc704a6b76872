import path from 'node:path';
import { z } from 'zod';
import type { PackageSource } from './interface.ts';

const absolute = z.string().refine((p) => path.isAbsolute(p) && !p.includes('\0'), 'an absolute path');

/** One application's package: on the provider's mirror (`url`) or on this machine (`path`), with its SHA-256. */
const packageSchema = z
  .strictObject({
    url: z
      .string()
      .url()
      .refine((u) => /^https?:\/\//.test(u), 'an http:// or https:// URL')
      .optional(),
    path: absolute.optional(),
    sha256: z.string().regex(/^[0-9a-fA-F]{64}$/, '64 hexadecimal digits'),
  })
  .refine((p) => (p.url === undefined) !== (p.path === undefined), 'give either url or path');

/** `config.drivers.installer` (docs/decisions/026-real-installer.md, README "Applications"). */
export const installerOptionsSchema = z.strictObject({
  /** The catalogue file; the panel's own when unset. */
  catalogue: absolute.optional(),
  /** The packages the operator offers, by the catalogue's `key`; an application without one is shown as unavailable. */
  packages: z.record(z.string().regex(/^[a-z0-9-]{1,40}$/), packageSchema).default({}),
  /** The database host written into an application's configuration. */
  databaseHost: z.string().min(1).default('localhost'),
  /** The PHP CLI that runs an application's own installer (WordPress's); unset leaves it to its web installer. */
  php: absolute.optional(),
  /** Limits of one package: the archive's bytes, the unpacked bytes and the number of entries. */
  maxPackageBytes: z.coerce
    .number()
    .int()
    .min(1)
    .default(256 * 1024 * 1024),
  maxUnpackedBytes: z.coerce
    .number()
    .int()
    .min(1)
    .default(1024 * 1024 * 1024),
  maxEntries: z.coerce.number().int().min(1).default(50_000),
  downloadTimeoutMs: z.coerce.number().int().min(1000).default(300_000),
});

export type InstallerOptions = z.infer<typeof installerOptionsSchema>;

const parsed = new WeakMap<object, InstallerOptions>();

/**
 * The installer's options, checked once per config; a bad one stops the start with the key named.
 * It takes the config's shape, not its type: the config's check of driver options imports this file.
 */
export function installerOptions(config: { drivers: { installer?: Record<string, unknown> } }): InstallerOptions {
  const raw = config.drivers.installer ?? {};
  const cached = parsed.get(raw);
  if (cached) return cached;
  const { driver: _driver, ...rest } = raw;
  const result = installerOptionsSchema.safeParse(rest);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`drivers.installer.${issue.path.join('.')}: ${issue.message}`);
  }
  parsed.set(raw, result.data);
  return result.data;
}

/** The configured package of an application, or null when the operator offers none. */
export function packageOf(options: InstallerOptions, key: string): PackageSource | null {
  const found = options.packages[key];
  if (!found) return null;
  return { location: found.url ?? found.path!, sha256: found.sha256.toLowerCase() };
}
