import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LANGUAGES, PALETTE } from '@atalaya/contract';
import { z } from 'zod';

const flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')]);

const schema = z.object({
  port: z.coerce.number().int().min(0).max(65535).default(8080),
  host: z.string().min(1).default('0.0.0.0'),
  dataDir: z.string().min(1).default('./data'),
  databaseUrl: z.string().regex(/^postgres(ql)?:\/\//, 'a postgres:// URL').optional(),
  demoPassword: z.string().min(10, 'at least 10 characters').max(128).optional(),
  /** Behind a load balancer or proxy: its address (or true), so per-IP limits see the client's IP. */
  trustProxy: z.union([flag, z.string().min(1)]).default(false),
  /** The origin browsers use, when a proxy sits in front; requests from any other origin are refused. */
  publicOrigin: z.string().url().optional(),
  company: z
    .object({
      name: z.string().min(1).max(100).default('Atalaya'),
      logo: z.string().min(1).default('/assets/images/logo.png'),
      logoMini: z.string().min(1).default('/assets/images/logo_mini.png'),
      color: z.enum(PALETTE).default('indigo'),
      allowCustomerColor: flag.default(false),
      email: z.string().email().default('support@example.com'),
    })
    .prefault({}),
  languages: z.array(z.enum(LANGUAGES)).min(1).default([...LANGUAGES]),
  legal: z
    .object({
      jurisdiction: z.string().min(1).max(100).default('Palma'),
      privacyTitle: z.string().min(1).default(''),
      privacyText: z.string().default(''),
      privacyLink: z.string().default(''),
    })
    .prefault({}),
  session: z
    .object({
      idleMinutes: z.coerce.number().int().min(1).max(24 * 60).default(30),
      absoluteHours: z.coerce.number().int().min(1).max(24 * 30).default(12),
    })
    .prefault({}),
  smtp: z.object({ url: z.string().regex(/^smtps?:\/\//, 'an smtp:// or smtps:// URL').optional() }).prefault({}),
  drivers: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  /** The provider's hosting tools and hosts, shown to customers (service area). */
  hosting: z
    .object({
      webRoot: z.string().regex(/^\/./, 'an absolute path').default('/var/www'),
      mailHost: z.string().min(3).default('example.net'),
      mailQuotaMb: z.coerce.number().int().min(1).default(1024),
      defaultPhpVersion: z.string().default('8.2'),
      webmailUrl: z.string().url().default('https://webmail.example.net/'),
      webFtpUrl: z.string().url().default('https://webftp.example.net/'),
      phpMyAdminUrl: z.string().url().default('https://phpmyadmin.example.net/index.php'),
      webConstructorUrl: z.string().url().default('https://builder.example.net/login'),
    })
    .prefault({}),
});

export type Config = z.infer<typeof schema>;

/** Environment variables that override the file, and the key each one sets. */
const ENV_KEYS: Record<string, string[]> = {
  PORT: ['port'],
  HOST: ['host'],
  ATALAYA_DATA_DIR: ['dataDir'],
  DATABASE_URL: ['databaseUrl'],
  ATALAYA_DEMO_PASSWORD: ['demoPassword'],
  ATALAYA_PUBLIC_ORIGIN: ['publicOrigin'],
  ATALAYA_TRUST_PROXY: ['trustProxy'],
  ATALAYA_COMPANY: ['company', 'name'],
  ATALAYA_LOGO: ['company', 'logo'],
  ATALAYA_LOGO_MINI: ['company', 'logoMini'],
  ATALAYA_COLOR: ['company', 'color'],
  ATALAYA_ALLOW_CUSTOMER_COLOR: ['company', 'allowCustomerColor'],
  ATALAYA_SUPPORT_EMAIL: ['company', 'email'],
  ATALAYA_LANGUAGES: ['languages'],
  ATALAYA_JURISDICTION: ['legal', 'jurisdiction'],
  ATALAYA_SESSION_IDLE_MINUTES: ['session', 'idleMinutes'],
  ATALAYA_SESSION_ABSOLUTE_HOURS: ['session', 'absoluteHours'],
  ATALAYA_SMTP_URL: ['smtp', 'url'],
};

export class ConfigError extends Error {}

function setPath(target: Record<string, unknown>, keys: string[], value: unknown) {
  let node = target;
  for (const key of keys.slice(0, -1)) {
    node[key] = typeof node[key] === 'object' && node[key] ? node[key] : {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys.at(-1)!] = value;
}

/** Reads the config file (ATALAYA_CONFIG, else ./atalaya.config.json if present), then the environment. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Record<string, unknown> = {}): Config {
  const file = env.ATALAYA_CONFIG ?? 'atalaya.config.json';
  let raw: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new ConfigError(`Configuration file ${path.resolve(file)} is not valid JSON: ${(error as Error).message}`);
    }
  } else if (env.ATALAYA_CONFIG) {
    throw new ConfigError(`Configuration file ${file} (ATALAYA_CONFIG) does not exist`);
  }
  for (const [name, keys] of Object.entries(ENV_KEYS)) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    setPath(raw, keys, name === 'ATALAYA_LANGUAGES' ? value.split(',').map((v) => v.trim()) : value);
  }
  for (const [key, value] of Object.entries(overrides)) setPath(raw, key.split('.'), value);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const key = issue.path.join('.');
      const envName = Object.entries(ENV_KEYS).find(([, keys]) => keys.join('.') === key)?.[0];
      return `  ${key}${envName ? ` (${envName})` : ''}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
