import { createHash } from 'node:crypto';
import type { MailPurpose } from '@atalaya/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../../config/config.ts';
import { dkimRecord } from '../../dkim.ts';
import { dnsSettings } from '../../drivers/dns/index.ts';
import type { Database } from '../../store/schema.ts';
import type { ZoneAuthor } from './history/record.ts';
import type { NewRecord } from './template.ts';

// The records a mail domain needs in the zone the panel hosts for it, worked out from the config,
// the zone's MX records and the item's DKIM keys. The DNS area owns them because a new zone's
// defaults include them; the mail area (service/mail/records.ts) writes them when mail changes.

type Db = Kysely<Database> | Transaction<Database>;

export interface MailRecord {
  purpose: MailPurpose;
  /** Relative to the zone, '' at the apex, as dns_record.zona. */
  zona: string;
  type: 'MX' | 'A' | 'AAAA' | 'TXT';
  value: string;
  priority: number | null;
}

/** The author of every change the mail service makes in a zone, as the zone's history shows it. */
export const MAIL_AUTHOR: ZoneAuthor = { kind: 'mail', by: 'Atalaya' };

const fill = (config: Config, text: string, zone: string) =>
  text.replaceAll('{zone}', zone).replaceAll('{mailHost}', config.hosting.mailHost);

/** The MX host of a domain, fully qualified without the final dot. */
export const mxHostOf = (config: Config, zone: string) =>
  fill(config, config.hosting.mailRecords.mx, zone).replace(/\.$/, '').toLowerCase();

/** The host that serves a domain's MTA-STS policy (RFC 8461 §3.2), relative to the zone. */
export const MTA_STS_HOST = 'mta-sts';

/** The item's MTA-STS policy site, if it has one (the sites area makes it; a zone's MX change asks for it). */
export const mtaStsSiteOf = (db: Db, itemId: number) =>
  db.selectFrom('site').select('id').where('service_id', '=', itemId).where('name', '=', MTA_STS_HOST).executeTakeFirst();

/**
 * The MTA-STS policy (RFC 8461 §3.2) a domain serves at https://mta-sts.<domain>/.well-known/mta-sts.txt:
 * one `mx:` line per host the domain's MX records name, so a sender accepts exactly those.
 */
export function mtaStsPolicy(config: Config, mxHosts: string[]): string | null {
  const { mtaSts, mtaStsMaxAge } = config.hosting.mailRecords;
  const hosts = [...new Set(mxHosts.map((h) => h.replace(/\.$/, '').toLowerCase()).filter(Boolean))].sort();
  if (mtaSts === 'off' || hosts.length === 0) return null;
  const mx = hosts.map((h) => `mx: ${h}\r\n`).join('');
  return `version: STSv1\r\nmode: ${mtaSts}\r\n${mx}max_age: ${mtaStsMaxAge}\r\n`;
}

/** The hosts the MX records of an item's zone name; before the zone exists, the configured MX host. */
export async function zoneMxHosts(db: Db, config: Config, itemId: number, zone: string): Promise<string[]> {
  const [found, rows] = await Promise.all([
    db.selectFrom('dns_zone').select('item_id').where('item_id', '=', itemId).executeTakeFirst(),
    db.selectFrom('dns_record').select('value').where('item_id', '=', itemId).where('type', '=', 'MX').where('zona', '=', '').execute(),
  ]);
  return found ? rows.map((r) => r.value) : [mxHostOf(config, zone)];
}

/** The `_mta-sts` TXT record of a policy: its id changes whenever the policy does, which tells senders to fetch it again. */
export const mtaStsRecord = (policy: string) => `v=STSv1; id=${createHash('sha256').update(policy).digest('hex').slice(0, 20)}`;

/**
 * Every record a mail domain needs, in the order the screen lists them: where mail goes (MX, and
 * the MX host's address when it is inside the domain), SPF, each DKIM key still in DNS (published,
 * signing or retired), DMARC, and MTA-STS with TLS reporting where the provider turned it on.
 */
export async function mailRecords(db: Db, config: Config, itemId: number, zone: string): Promise<MailRecord[]> {
  const { mailRecords: defaults } = config.hosting;
  const mx = mxHostOf(config, zone);
  const records: MailRecord[] = [{ purpose: 'mx', zona: '', type: 'MX', value: `${mx}.`, priority: 10 }];
  if (mx.endsWith(`.${zone}`)) {
    const { mailIp } = dnsSettings(config);
    records.push({
      purpose: 'host',
      zona: mx.slice(0, -zone.length - 1),
      type: mailIp.includes(':') ? 'AAAA' : 'A',
      value: mailIp,
      priority: null,
    });
  }
  records.push({ purpose: 'spf', zona: '', type: 'TXT', value: fill(config, defaults.spf, zone), priority: null });
  const keys = await db.selectFrom('mail_dkim').selectAll().where('item_id', '=', itemId).orderBy('id').execute();
  for (const key of keys) {
    records.push({
      purpose: 'dkim',
      zona: `${key.selector}._domainkey`,
      type: 'TXT',
      value: dkimRecord(key.algorithm, key.public_key),
      priority: null,
    });
  }
  records.push({ purpose: 'dmarc', zona: '_dmarc', type: 'TXT', value: fill(config, defaults.dmarc, zone), priority: null });
  const policy = mtaStsPolicy(config, await zoneMxHosts(db, config, itemId, zone));
  if (policy) {
    records.push({ purpose: 'mtasts', zona: '_mta-sts', type: 'TXT', value: mtaStsRecord(policy), priority: null });
    const { webIp } = dnsSettings(config);
    if (defaults.mtaStsHost)
      records.push({ purpose: 'mtastshost', zona: MTA_STS_HOST, type: webIp.includes(':') ? 'AAAA' : 'A', value: webIp, priority: null });
    if (defaults.tlsRpt) {
      records.push({
        purpose: 'tlsrpt',
        zona: '_smtp._tls',
        type: 'TXT',
        value: `v=TLSRPTv1; rua=${fill(config, defaults.tlsRpt, zone)}`,
        priority: null,
      });
    }
  }
  return records;
}

/** The tag a TXT record of each purpose starts with: a zone holding one already keeps its own. */
const TAGS: Partial<Record<MailPurpose, RegExp>> = {
  spf: /^v=spf1( |$)/i,
  dmarc: /^v=DMARC1\s*;/i,
  mtasts: /^v=STSv1\s*;/i,
  tlsrpt: /^v=TLSRPTv1\s*;/i,
};

/**
 * The records the panel publishes in a zone it hosts that are not there yet. MX and its host come
 * with the zone's template; SPF, DMARC, MTA-STS and TLS-RPT only where the zone has none of that
 * kind (a customer's own policy is theirs); DKIM wherever the key's record is missing.
 */
export function missingRecords(wanted: MailRecord[], present: { zona: string; type: string; value: string }[]): NewRecord[] {
  const missing = wanted.filter((w) => {
    if (w.purpose === 'mx' || w.purpose === 'host') return false;
    const same = present.filter((p) => p.zona === w.zona && p.type === w.type);
    // A name the customer already points somewhere is theirs, whatever address it holds.
    if (w.purpose === 'mtastshost')
      return !present.some((p) => p.zona === w.zona && (p.type === 'A' || p.type === 'AAAA' || p.type === 'CNAME'));
    const tag = TAGS[w.purpose];
    return tag ? !same.some((p) => tag.test(p.value)) : !same.some((p) => p.value === w.value);
  });
  return missing.map((r) => ({ zona: r.zona, type: r.type, ttl: 0, priority: r.priority, value: r.value, dynamic_value: null }));
}

/** The hook a new zone's defaults (and "restore defaults") call: the mail records of an item with a mail service. */
export const publishedWithZone =
  (config: Config) =>
  async (db: Db, itemId: number, zone: string, records: NewRecord[]): Promise<NewRecord[]> => {
    const mail = await db.selectFrom('mail_service').select('item_id').where('item_id', '=', itemId).executeTakeFirst();
    return mail ? missingRecords(await mailRecords(db, config, itemId, zone), records) : [];
  };

/** Whether the panel hosts the item's zone: it has one, or will on first sight (a hosting service). */
export async function hostsZone(db: Db, itemId: number) {
  const [zone, service] = await Promise.all([
    db.selectFrom('dns_zone').select('item_id').where('item_id', '=', itemId).executeTakeFirst(),
    db.selectFrom('service').select('item_id').where('item_id', '=', itemId).executeTakeFirst(),
  ]);
  return Boolean(zone || service);
}
