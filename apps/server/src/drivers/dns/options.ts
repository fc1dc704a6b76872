import { DNS_TTLS, DNS_TYPES } from '@atalaya/contract';
import { z } from 'zod';

const templateRecord = z.strictObject({
  zona: z.string().default(''),
  type: z.enum(DNS_TYPES),
  /** May hold {zone}, {webIp}, {mailIp}; the raw text is shown as the record's dynamic value. */
  value: z.string().min(1),
  ttl: z.literal(DNS_TTLS).default(0),
  priority: z.number().int().optional(),
});
export type TemplateRecord = z.infer<typeof templateRecord>;

/**
 * A record set the provider offers by name (an e-mail provider's MX and SPF, a site builder's
 * records): the customer applies it to a zone with the same preview as an import. Values and
 * names may hold {domain}, the zone's name.
 */
const namedTemplate = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/),
  label: z.strictObject({ es: z.string().min(1), en: z.string().min(1), ca: z.string().min(1) }),
  records: z.array(templateRecord).min(1),
});
export type NamedTemplate = z.infer<typeof namedTemplate>;

/** The provider's default records (restore defaults); the apex NS come from `nameservers`. */
export const DEFAULT_TEMPLATE: TemplateRecord[] = [
  { zona: '', type: 'A', value: '{webIp}', ttl: 0 },
  { zona: 'www', type: 'CNAME', value: '{zone}.', ttl: 0 },
  { zona: 'mail', type: 'A', value: '{mailIp}', ttl: 0 },
  { zona: '', type: 'MX', value: 'mail.{zone}.', ttl: 0, priority: 10 },
  { zona: '', type: 'TXT', value: 'v=spf1 a mx ~all', ttl: 0 },
];

/** `drivers.dns` of the config, e.g. {"driver":"powerdns","url":"http://127.0.0.1:8081","apiKey":"…"}. */
export const dnsOptionsSchema = z
  .strictObject({
    driver: z.enum(['local', 'powerdns']).default('local'),
    url: z.string().url().optional(),
    apiKey: z.string().min(1).optional(),
    serverId: z.string().min(1).default('localhost'),
    nameservers: z.array(z.string().min(3)).min(1).default(['ns1.atalaya.test.', 'ns2.atalaya.test.']),
    hostmaster: z.string().optional(),
    defaultTtl: z.number().int().min(60).max(604800).default(3600),
    webIp: z.string().default('192.0.2.10'),
    mailIp: z.string().default('192.0.2.25'),
    template: z.array(templateRecord).default(DEFAULT_TEMPLATE),
    templates: z
      .array(namedTemplate)
      .default([])
      .refine((list) => new Set(list.map((t) => t.name)).size === list.length, { message: 'template names must differ' }),
    timeoutMs: z.number().int().min(100).default(5000),
    /**
     * The TTL of DS records at the parent: after the panel withdraws a DS, the zone stays signed this
     * long, until no resolver can still hold the DS (decision 034).
     */
    dsTtl: z.number().int().min(0).max(604800).default(86400),
    /**
     * Where the delegation check reaches a name server, "address" or "address:port", by name
     * (e.g. {"ns1.example.net.": "192.0.2.53"}); a name not listed is looked up, port 53.
     */
    nsAddresses: z.record(z.string(), z.string()).default({}),
  })
  .refine((s) => s.driver !== 'powerdns' || (s.url && s.apiKey), { message: 'the powerdns driver needs url and apiKey' });
export type DnsSettings = z.infer<typeof dnsOptionsSchema>;
