/** Schemas, code tables and limits of the dns area, shared by the web forms and the routes. */
import { z } from 'zod';
import { singleLine } from './strings.ts';

/** The nine record types (docs/behaviour/service-area-dns.md#constants); the first is the default. */
export const DNS_TYPES = ['A', 'AAAA', 'ANAME', 'CAA', 'CNAME', 'MX', 'NS', 'SRV', 'TXT'] as const;
export type DnsType = (typeof DNS_TYPES)[number];
export const DEFAULT_DNS_TYPE: DnsType = 'A';

/** TTL options in seconds; 0 means the provider's default TTL. */
export const DNS_TTLS = [0, 600, 1800, 3600, 21600, 43200, 86400] as const;
export const DEFAULT_TTL = 0;

export const DNS_PRIORITIES = [0, 1, 5, 10, 15, 20, 30, 40, 50, 60, 70, 80, 90, 100] as const;
export const DEFAULT_PRIORITY = 20;

/**
 * What one zone import may hold, and how many previews and imports (of a file, or a template's
 * preview) a user may ask for in a minute (decision 054). The caps are far above any real zone
 * (the panel's own export of a 50,000-record zone is 3.1 MB); the planner is linear, so a plan at
 * the cap still holds the event loop for about a second, and the limit keeps one user from
 * holding it for long. The message `dns.import_too_large` names the caps in its three languages.
 */
export const ZONE_IMPORT_LIMITS = { characters: 4_000_000, records: 50_000, plansPerMinute: 10 } as const;
/** The types whose records carry a priority (MX preference, SRV priority). */
export const hasPriority = (type: string) => type === 'MX' || type === 'SRV';

export const CAA_TAGS = ['issue', 'issuewild', 'iodef'] as const;
export type CaaTag = (typeof CAA_TAGS)[number];
export const CAA_DEFAULT = { flag: 0, tag: 'issue' as CaaTag };

export const SRV_PROTOCOLS = ['_tcp', '_udp', '_tls'] as const;
export const SRV_SERVICES = [
  '_sip',
  '_sips',
  '_http',
  '_https',
  '_ftp',
  '_tftpd',
  '_scp',
  '_smtp',
  '_pop3',
  '_pop3s',
  '_imaps',
  '_imap',
  '_named',
  '_ldap',
  '_ssh',
  '_dhcp',
  '_radius',
] as const;
/** A free-text SRV service name ("other" in the service list): an underscore and a protocol-style label. */
export const SRV_OTHER_SERVICE = /^_[a-z0-9][a-z0-9-]{0,61}$/;

export const DNS_LIMITS = { label: 63, name: 253, txtBytes: 4096, caaValue: 255, value: 4200 } as const;

/** Create: type is an enum, so `A'` or a shell string is refused before anything is stored. */
export const dnsCreateSchema = z.object({
  type: z.enum(DNS_TYPES),
  zona: singleLine(DNS_LIMITS.name + 1).default(''),
  value: z.string().min(1).max(DNS_LIMITS.value),
  ttl: z.coerce
    .number()
    .pipe(z.literal(DNS_TTLS, { error: 'dns.ttl_list' }))
    .default(DEFAULT_TTL),
  priority: z.union([z.literal(''), z.coerce.number().pipe(z.literal(DNS_PRIORITIES))], { error: 'dns.priority_list' }).optional(),
});
export type DnsCreateInput = z.input<typeof dnsCreateSchema>;

/** Save: name and type are fixed once created (docs/behaviour/service-area-dns.md#validation), only value, ttl and priority change. */
export const dnsSaveSchema = dnsCreateSchema.pick({ value: true, ttl: true, priority: true });
export type DnsSaveInput = z.input<typeof dnsSaveSchema>;

/** A record as the API answers it (docs/behaviour/service-area-dns.md#data). */
export const dnsRecordSchema = z.object({
  id: z.number(),
  /** The part of the name before the zone: '' at the apex. */
  zona: z.string(),
  type: z.enum(DNS_TYPES),
  /** The full name, in Unicode, without the trailing dot. */
  reference: z.string(),
  referencePunycode: z.string(),
  ttl: z.number(),
  /** MX preference or SRV priority; null for the other types. */
  priority: z.number().nullable(),
  value: z.string(),
  /** The provider-template expression a default record was built from, e.g. `mail.{zone}.`. */
  dynamicValue: z.string().nullable(),
  eliminable: z.boolean(),
});
export type DnsRecord = z.infer<typeof dnsRecordSchema>;

// ── Composite values, shared by the web forms and the server ──────────────────────

/** SRV: the record's priority field is the SRV priority; the value is `weight port target.` (RFC 2782). */
export interface SrvParts {
  weight: string;
  port: string;
  target: string;
}
export const joinSrvValue = (p: SrvParts) => `${p.weight.trim()} ${p.port.trim()} ${withDot(p.target.trim())}`;
export function splitSrvValue(value: string): SrvParts {
  const [weight = '', port = '', ...rest] = value.trim().split(/\s+/);
  return { weight, port, target: withoutDot(rest.join(' ')) };
}

/** SRV name: `_service._protocol` then the optional sub-name inside the zone. */
export interface SrvName {
  service: string;
  protocol: string;
  zona: string;
}
export const joinSrvName = (n: SrvName) =>
  [n.service, n.protocol, n.zona]
    .map((s) => s.trim())
    .filter(Boolean)
    .join('.');
export function splitSrvName(zona: string): SrvName {
  const [service = '', protocol = '', ...rest] = zona.split('.');
  return { service, protocol, zona: rest.join('.') };
}

/** CAA: `flag tag "text"`. */
export interface CaaParts {
  flag: string;
  tag: string;
  text: string;
}
export const joinCaaValue = (p: CaaParts) => `${p.flag.trim()} ${p.tag.trim()} "${p.text}"`;
export function splitCaaValue(value: string): CaaParts {
  const match = /^\s*(\S+)\s+(\S+)\s+(.*)$/s.exec(value);
  if (!match) return { flag: String(CAA_DEFAULT.flag), tag: CAA_DEFAULT.tag, text: value };
  return { flag: match[1], tag: match[2], text: match[3].replace(/^"(.*)"$/s, '$1') };
}

/** Host values are stored fully qualified; forms show them without the trailing dot. */
export const withoutDot = (host: string) => (host.endsWith('.') && host.length > 1 ? host.slice(0, -1) : host);
export const withDot = (host: string) => (host === '' || host.endsWith('.') ? host : `${host}.`);
