import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_WARN_DAYS, LANGUAGES, PALETTE } from '@atalaya/contract';
import { z } from 'zod';
import { checkDrivers } from './drivers.ts';
import { unknownKeys } from './unknown-keys.ts';

/** Let's Encrypt's production directory; staging is https://acme-staging-v02.api.letsencrypt.org/directory. */
export const LETS_ENCRYPT_PRODUCTION = 'https://acme-v02.api.letsencrypt.org/directory';

/** pino's levels, quietest last; `info` logs one line per request. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

const flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')]);

/** Printable ASCII, as a TXT record's text is published; `{zone}` and `{mailHost}` are filled per domain. */
const recordText = (start: RegExp, what: string) =>
  z
    .string()
    .max(1000)
    .regex(/^[\x20-\x7e]+$/, 'printable ASCII')
    .regex(start, what);

const mailRecords = z.strictObject({
  /** The MX host mail of a domain goes to (shown to copy; a hosted zone has it from the DNS template). */
  mx: z
    .string()
    .regex(/^([a-z0-9{}-]+\.)+[a-z0-9{}-]*\.?$/i, 'a host name')
    .default('mail.{zone}.'),
  /** Published at the apex when the zone has no SPF of its own. */
  spf: recordText(/^v=spf1( |$)/, 'an SPF record starting with "v=spf1"').default('v=spf1 a mx ~all'),
  /** Published at `_dmarc` when the zone has none. */
  dmarc: recordText(/^v=DMARC1;/, 'a DMARC record starting with "v=DMARC1;"').default('v=DMARC1; p=none'),
  /** MTA-STS (RFC 8461): off, or the policy's mode; on publishes `_mta-sts` (and `_smtp._tls` with `tlsRpt`). */
  mtaSts: z.enum(['off', 'testing', 'enforce']).default('off'),
  /** The policy's max_age, seconds (one day to one year). */
  mtaStsMaxAge: z.coerce.number().int().min(86_400).max(31_557_600).default(604_800),
  /**
   * With MTA-STS on, serve the policy from each hosted domain's own `mta-sts` host: its address in
   * the zone, a site answering /.well-known/mta-sts.txt, a free certificate. Off when the operator
   * serves the policies elsewhere (a central host the names point to); the TXT records stay.
   */
  mtaStsHost: flag.default(true),
  /** TLS reporting (RFC 8460): where reports go, e.g. `mailto:tls-reports@{zone}`; unset publishes no `_smtp._tls`. */
  tlsRpt: recordText(/^(mailto:|https:)/, 'a mailto: or https: address').optional(),
  /** The resolver the mail health card asks, "address" or "address:port"; unset: the system's first. */
  resolver: z
    .string()
    .regex(/^(\[[0-9a-f:.]+\]:\d+|[0-9a-z.-]+(:\d+)?|[0-9a-f:]+)$/i, '"address" or "address:port"')
    .optional(),
});

/**
 * Every object is strict: a misspelt key would otherwise be a key left at its default without a
 * word (`hosting.webRot` serving from /var/www, `drivers.registy` on the simulated registry).
 */
const schema = z.strictObject({
  port: z.coerce.number().int().min(0).max(65535).default(8080),
  host: z.string().min(1).default('0.0.0.0'),
  dataDir: z.string().min(1).default('./data'),
  databaseUrl: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'a postgres:// URL')
    .optional(),
  demoPassword: z.string().min(10, 'at least 10 characters').max(128).optional(),
  /** Behind a load balancer or proxy: its address (or true), so per-IP limits see the client's IP. */
  trustProxy: z.union([flag, z.string().min(1)]).default(false),
  /** The origin browsers use, when a proxy sits in front; requests from any other origin are refused. */
  publicOrigin: z.string().url().optional(),
  company: z
    .strictObject({
      name: z.string().min(1).max(100).default('Atalaya'),
      logo: z.string().min(1).default('/assets/images/logo.png'),
      logoMini: z.string().min(1).default('/assets/images/logo_mini.png'),
      color: z.enum(PALETTE).default('indigo'),
      allowCustomerColor: flag.default(false),
      email: z.string().email().default('support@example.com'),
      /** The contact page's variant: `full` also asks the customer's name and phone. */
      contactForm: z.enum(['simple', 'full']).default('simple'),
    })
    .prefault({}),
  languages: z
    .array(z.enum(LANGUAGES))
    .min(1)
    .default([...LANGUAGES]),
  legal: z
    .strictObject({
      jurisdiction: z.string().min(1).max(100).default('Palma'),
      privacyTitle: z.string().min(1).default(''),
      privacyText: z.string().default(''),
      privacyLink: z.string().default(''),
    })
    .prefault({}),
  session: z
    .strictObject({
      idleMinutes: z.coerce
        .number()
        .int()
        .min(1)
        .max(24 * 60)
        .default(30),
      absoluteHours: z.coerce
        .number()
        .int()
        .min(1)
        .max(24 * 30)
        .default(12),
    })
    .prefault({}),
  /** Second factors (decision 021): `requiredRealms` must sign in with one (besides the realms set so by the CLI). */
  secondFactor: z
    .strictObject({
      requiredRealms: z.array(z.string().min(1)).default([]),
    })
    .prefault({}),
  smtp: z
    .strictObject({
      url: z
        .string()
        .regex(/^smtps?:\/\//, 'an smtp:// or smtps:// URL')
        .optional(),
    })
    .prefault({}),
  drivers: z.record(z.string(), z.record(z.string(), z.unknown())).superRefine(checkDrivers).default({}),
  /** The outbox worker of each process (docs/deploy.md). */
  jobs: z
    .strictObject({
      /** A job whose process died is taken over by another process this long after its last renewal. */
      leaseSeconds: z.coerce.number().int().min(2).max(3600).default(30),
      /** Jobs of different items one process applies at once. */
      concurrency: z.coerce.number().int().min(1).max(64).default(4),
      /** How long a call the user waits on (a renewal, a restore, a new auth code) waits for its registry change's job before answering it pending. */
      waitSeconds: z.coerce.number().min(0).max(120).default(15),
    })
    .prefault({}),
  /** The port hosting nodes' agents connect to over mutual TLS (decision 040); unset: no nodes. */
  nodes: z
    .strictObject({
      port: z.coerce.number().int().min(0).max(65535).optional(),
      host: z.string().min(1).default('0.0.0.0'),
      /** The names and addresses agents reach the panel by: the node port's certificate is made for them. */
      hosts: z.array(z.string().min(1)).min(1).default(['localhost', '127.0.0.1']),
    })
    .prefault({}),
  /** What the server logs (JSON lines on standard output): `info` includes one line per request. */
  logLevel: z.enum(LOG_LEVELS, { error: `one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  /** Server processes sharing the port (Node's cluster): a number, or `auto` for one per core. */
  workers: z.union([z.literal('auto'), z.coerce.number().int().min(1).max(256)]).default(1),
  /** The sealing key (base64, 32 bytes) every process must share; else read from `secretKeyFile`. */
  secretKey: z.string().min(1).optional(),
  /** A file holding the sealing key; default `<dataDir>/secret.key`, created on first start. */
  secretKeyFile: z.string().min(1).optional(),
  /** Days before a certificate, domain or service expires at which its writers are mailed, once each (decision 019). */
  expiry: z
    .strictObject({
      warnDays: z
        .array(z.coerce.number().int().min(1).max(365))
        .min(1)
        .default([...DEFAULT_WARN_DAYS]),
      /** Days before expiry at which a domain in renewal mode `auto` is renewed for a year. */
      autoRenewDays: z.coerce.number().int().min(0).max(365).default(30),
    })
    .prefault({}),
  /**
   * A change of owner (registrant name, organisation or e-mail) locks the domain against transfers
   * for `lockDays` (the ICANN transfer policy's 60 days), unless the registrant opts out; `tlds`
   * sets other days for a TLD (`es: 0` where the registry has no such lock).
   */
  ownerChange: z
    .strictObject({
      lockDays: z.coerce.number().int().min(0).max(365).default(60),
      tlds: z
        .record(z.string().regex(/^[a-z0-9-]{2,63}$/, 'a TLD without its dot, in lower case'), z.coerce.number().int().min(0).max(365))
        .default({}),
    })
    .prefault({}),
  /** Free certificates for sites (decision 019): the ACME directory, the account's contact, the preferred challenge. */
  acme: z
    .strictObject({
      directoryUrl: z.string().url().default(LETS_ENCRYPT_PRODUCTION),
      email: z.string().email().optional(),
      challenge: z.enum(['http-01', 'dns-01']).default('http-01'),
      /** A CA to trust for the directory's own HTTPS (a private ACME server such as pebble), PEM file. */
      caFile: z.string().regex(/^\/./, 'an absolute path').optional(),
    })
    .prefault({}),
  /** The activity log (decision 023): days a line is kept before the housekeeping deletes it. */
  activity: z
    .strictObject({
      retentionDays: z.coerce.number().int().min(1).max(3650).default(365),
    })
    .prefault({}),
  /**
   * Backups of the hosting services (issue 46, docs/backups.md): restic repositories under
   * `repository` (a local path, default `<dataDir>/backups`, or an `sftp:`, `s3:` or `rest:` URL),
   * one per realm (`<repository>/<realm>`), each with its own key. Every service is backed up once
   * a night, spread over `windowMinutes` after `schedule`; `keep` is restic's retention; a customer
   * may ask for `perDay` backups a day besides.
   */
  backups: z
    .strictObject({
      enabled: flag.default(true),
      repository: z.string().min(1).optional(),
      /** What the repository kind needs besides its URL (S3's AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY). */
      env: z.record(z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name'), z.string()).default({}),
      schedule: z
        .string()
        .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time of day, HH:MM')
        .default('03:00'),
      windowMinutes: z.coerce.number().int().min(0).max(1439).default(240),
      keep: z
        .strictObject({
          daily: z.coerce.number().int().min(1).max(3650).default(7),
          weekly: z.coerce.number().int().min(0).max(520).default(4),
          monthly: z.coerce.number().int().min(0).max(240).default(6),
        })
        .prefault({}),
      perDay: z.coerce.number().int().min(0).max(100).default(3),
      /** `service-move` carries the data by a backup and a restore (decision 064); false: streamed through the panel, as before. */
      moveBySnapshot: flag.default(true),
    })
    .prefault({}),
  /** The provider's hosting tools and hosts, shown to customers (service area). */
  hosting: z
    .strictObject({
      webRoot: z.string().regex(/^\/./, 'an absolute path').default('/var/www'),
      mailHost: z.string().min(3).default('example.net'),
      mailQuotaMb: z.coerce.number().int().min(1).default(1024),
      /** A new DKIM key signs this long after it is published (the record's TTL, so resolvers see it first); the old one stays published as long again. */
      dkimTtlSeconds: z.coerce.number().int().min(60).max(604_800).default(3600),
      /** Also make and publish an Ed25519 key (RFC 8463) beside the RSA 2048 one; it signs where the mail driver runs an Ed25519 signer (`dkimSignEd25519`). */
      dkimEd25519: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(false),
      /** What the panel publishes for every mail domain whose zone it hosts, and shows to copy where the zone is elsewhere (decision 045). */
      mailRecords: mailRecords.prefault({}),
      defaultPhpVersion: z.string().default('8.2'),
      webmailUrl: z.string().url().default('https://webmail.example.net/'),
      webFtpUrl: z.string().url().default('https://webftp.example.net/'),
      phpMyAdminUrl: z.string().url().default('https://phpmyadmin.example.net/index.php'),
      webConstructorUrl: z.string().url().default('https://builder.example.net/login'),
      /** How often each hosting service's usage is measured (web space, mailboxes, databases); 0: only on demand. */
      usageRefreshMinutes: z.coerce.number().int().min(0).default(60),
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
  ATALAYA_CONTACT_FORM: ['company', 'contactForm'],
  ATALAYA_LANGUAGES: ['languages'],
  ATALAYA_JURISDICTION: ['legal', 'jurisdiction'],
  ATALAYA_SESSION_IDLE_MINUTES: ['session', 'idleMinutes'],
  ATALAYA_SESSION_ABSOLUTE_HOURS: ['session', 'absoluteHours'],
  ATALAYA_SMTP_URL: ['smtp', 'url'],
  ATALAYA_REQUIRE_2FA_REALMS: ['secondFactor', 'requiredRealms'],
  ATALAYA_JOB_LEASE_SECONDS: ['jobs', 'leaseSeconds'],
  ATALAYA_JOB_CONCURRENCY: ['jobs', 'concurrency'],
  ATALAYA_JOB_WAIT_SECONDS: ['jobs', 'waitSeconds'],
  ATALAYA_NODES_PORT: ['nodes', 'port'],
  ATALAYA_WORKERS: ['workers'],
  ATALAYA_LOG_LEVEL: ['logLevel'],
  ATALAYA_SECRET_KEY: ['secretKey'],
  ATALAYA_SECRET_KEY_FILE: ['secretKeyFile'],
  ATALAYA_ACME_DIRECTORY: ['acme', 'directoryUrl'],
  ATALAYA_ACME_EMAIL: ['acme', 'email'],
  ATALAYA_ACME_CHALLENGE: ['acme', 'challenge'],
  ATALAYA_ACME_CA_FILE: ['acme', 'caFile'],
  ATALAYA_ACTIVITY_RETENTION_DAYS: ['activity', 'retentionDays'],
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
    setPath(
      raw,
      keys,
      name === 'ATALAYA_LANGUAGES' || name === 'ATALAYA_REQUIRE_2FA_REALMS' ? value.split(',').map((v) => v.trim()) : value,
    );
  }
  for (const [key, value] of Object.entries(overrides)) setPath(raw, key.split('.'), value);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    // A strict object reports its unknown keys together: each gets its own line, with the key meant.
    const issues = parsed.error.issues.flatMap((issue) => (issue.code === 'unrecognized_keys' ? unknownKeys(schema, issue) : [issue]));
    const lines = issues.map((issue) => {
      const key = issue.path.join('.');
      const envName = Object.entries(ENV_KEYS).find(([, keys]) => keys.join('.') === key)?.[0];
      return `  ${key}${envName ? ` (${envName})` : ''}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
