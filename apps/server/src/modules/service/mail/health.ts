import { BlockList, isIP } from 'node:net';
import { MAIL_CHECKS, type MailCheck } from '@atalaya/contract';
import type { Answer } from 'dns-packet';
import { ask, type Target } from '../../dns/check/probe.ts';
import type { MailRecord } from '../../dns/mail-records.ts';

export type Level = 'ok' | 'warning' | 'error';
export interface MailFindingCode {
  check: MailCheck;
  code: string;
  level: Level;
  params: Record<string, string>;
}
export type Live = 'ok' | 'missing' | 'different' | 'unknown';

/** Answers of one name and type as the resolver gives them; NXDOMAIN and NODATA are an empty list. */
export type Lookup = (name: string, type: 'MX' | 'TXT' | 'A' | 'AAAA') => Promise<Answer[]>;

/** A lookup through one resolver with the delegation check's probe, each question asked once. */
export function resolverLookup(target: Target, timeoutMs = 2000): Lookup {
  const asked = new Map<string, Promise<Answer[]>>();
  return (name, type) => {
    const key = `${name.toLowerCase()} ${type}`;
    const found = asked.get(key);
    if (found) return found;
    const answer = ask(target, name, type, { timeoutMs }).then((reply) => {
      if (reply.rcode !== 'NOERROR' && reply.rcode !== 'NXDOMAIN') throw new Error(reply.rcode);
      return reply.answers.filter((a) => a.type === type && a.name.toLowerCase() === name.toLowerCase());
    });
    asked.set(key, answer);
    return answer;
  };
}

/** Each TXT record's character-strings joined, as one text (RFC 7208 §3.3, RFC 6376 §3.6.2.2). */
const texts = (answers: Answer[]) =>
  answers.map((a) => {
    const data = (a as { data: Buffer | Buffer[] | string }).data;
    return (Array.isArray(data) ? data : [data]).map((d) => d.toString()).join('');
  });

const exchanges = (answers: Answer[]) =>
  answers.map((a) => (a as { data: { exchange: string } }).data.exchange.replace(/\.$/, '').toLowerCase());

const addresses = (answers: Answer[]) => answers.map((a) => String((a as { data: string }).data));

/** The `p=` of a DKIM record, spaces removed (RFC 6376 §3.6.1 allows folding whitespace). */
const dkimKey = (text: string) => /(?:^|;)\s*p=([^;]*)/.exec(text)?.[1]?.replace(/\s+/g, '') ?? null;

/**
 * Whether an SPF policy gives `pass` to an address (RFC 7208 §4–5): ip4, ip6, a, mx, include and
 * redirect, within the ten DNS lookups the RFC allows; `exists` and `ptr` are not evaluated (they
 * match nothing here).
 */
export async function spfPasses(domain: string, ip: string, lookup: Lookup, budget = { lookups: 10 }): Promise<boolean> {
  const records = texts(await lookup(domain, 'TXT')).filter((t) => /^v=spf1( |$)/i.test(t));
  if (records.length !== 1) return false;
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  const inBlock = (addressList: string[], prefix: number | undefined) => {
    const list = new BlockList();
    for (const a of addressList) {
      const f = isIP(a) === 6 ? 'ipv6' : 'ipv4';
      if (f === family) list.addSubnet(a, prefix ?? (f === 'ipv6' ? 128 : 32), f);
    }
    return list.check(ip, family);
  };
  const hostsOf = async (name: string) => {
    if (--budget.lookups < 0) return [];
    return addresses(await lookup(name, family === 'ipv6' ? 'AAAA' : 'A'));
  };
  let redirect: string | null = null;
  for (const term of records[0]!.split(/\s+/).slice(1)) {
    if (!term) continue;
    const modifier = /^redirect=(.+)$/i.exec(term);
    if (modifier) {
      redirect = modifier[1]!;
      continue;
    }
    const m = /^([+?~-]?)([a-z0-9]+)(?::([^/]+))?(?:\/(\d+))?(?:\/\/(\d+))?$/i.exec(term);
    if (!m) continue;
    const [, qualifier = '', mechanism, argument, v4Prefix, v6Prefix] = m;
    const prefix = family === 'ipv6' ? (v6Prefix ?? (mechanism!.toLowerCase() === 'ip6' ? v4Prefix : undefined)) : v4Prefix;
    let matched = false;
    switch (mechanism!.toLowerCase()) {
      case 'all':
        matched = true;
        break;
      case 'ip4':
      case 'ip6':
        matched = Boolean(argument) && inBlock([argument!], prefix === undefined ? undefined : Number(prefix));
        break;
      case 'a':
        matched = inBlock(await hostsOf(argument ?? domain), prefix === undefined ? undefined : Number(prefix));
        break;
      case 'mx': {
        if (--budget.lookups < 0) break;
        const hosts = exchanges(await lookup(argument ?? domain, 'MX'));
        for (const host of hosts.slice(0, 10)) {
          if (inBlock(await hostsOf(host), prefix === undefined ? undefined : Number(prefix))) matched = true;
        }
        break;
      }
      case 'include':
        if (--budget.lookups < 0 || !argument) break;
        matched = await spfPasses(argument, ip, lookup, budget);
        break;
    }
    if (matched) return qualifier === '' || qualifier === '+';
  }
  if (redirect && --budget.lookups >= 0) return spfPasses(redirect, ip, lookup, budget);
  return false;
}

export interface HealthInput {
  domain: string;
  /** Every record the domain needs (records.ts), DKIM keys included. */
  wanted: MailRecord[];
  /** The address the panel's mail leaves from. */
  serverIp: string;
  /** The provider publishes MTA-STS. */
  mtaSts: boolean;
  lookup: Lookup;
}

const fullName = (zona: string, domain: string) => (zona ? `${zona}.${domain}` : domain);

/** The world's view of one wanted record: the same value, another of its kind, or none. */
async function liveOf(record: MailRecord, domain: string, lookup: Lookup): Promise<Live> {
  try {
    const answers = await lookup(fullName(record.zona, domain), record.type);
    if (record.type === 'MX')
      return exchanges(answers).includes(record.value.replace(/\.$/, '').toLowerCase()) ? 'ok' : answers.length ? 'different' : 'missing';
    if (record.type !== 'TXT') return addresses(answers).includes(record.value) ? 'ok' : answers.length ? 'different' : 'missing';
    const found = texts(answers);
    if (record.purpose === 'dkim') {
      const want = dkimKey(record.value);
      return found.some((t) => dkimKey(t) === want) ? 'ok' : found.some((t) => /v=DKIM1/i.test(t) || dkimKey(t)) ? 'different' : 'missing';
    }
    if (found.includes(record.value)) return 'ok';
    const tag = record.value.split(/[ ;]/)[0]!.toLowerCase();
    return found.some((t) => t.toLowerCase().startsWith(tag)) ? 'different' : 'missing';
  } catch {
    return 'unknown';
  }
}

/** The health card: MX, SPF, DKIM, DMARC and MTA-STS as the resolver answers them, and each wanted record's live state. */
export async function mailHealth(input: HealthInput): Promise<{ findings: MailFindingCode[]; live: Live[] }> {
  const { domain, wanted, lookup } = input;
  // Every section asks at once (a slow resolver costs one time-out, not one per question); the
  // findings keep the card's order whatever answers first.
  const found = new Map<MailCheck, MailFindingCode[]>(MAIL_CHECKS.map((c) => [c, []]));
  const add = (check: MailCheck, level: Level, code: string, params: Record<string, string> = {}) =>
    found.get(check)!.push({ check, level, code, params });
  const guarded = async (check: MailCheck, name: string, body: () => Promise<void>) => {
    try {
      await body();
    } catch {
      add(check, 'error', 'lookup_failed', { name });
    }
  };
  const of = (purpose: MailRecord['purpose']) => wanted.filter((w) => w.purpose === purpose);

  const mxHost = of('mx')[0]!.value.replace(/\.$/, '');
  const sections: Promise<void>[] = [];
  sections.push(
    guarded('mx', domain, async () => {
      const found = exchanges(await lookup(domain, 'MX'));
      if (found.length === 0) add('mx', 'error', 'mx_missing', { host: mxHost });
      else if (!found.includes(mxHost.toLowerCase())) add('mx', 'warning', 'mx_other', { host: mxHost, found: found.join(', ') });
      else add('mx', 'ok', 'mx_ok', { host: mxHost });
    }),
  );

  sections.push(
    guarded('spf', domain, async () => {
      const spf = texts(await lookup(domain, 'TXT')).filter((t) => /^v=spf1( |$)/i.test(t));
      const ip = input.serverIp;
      if (spf.length === 0) add('spf', 'error', 'spf_missing', { record: of('spf')[0]!.value });
      else if (spf.length > 1) add('spf', 'error', 'spf_multiple', { count: String(spf.length) });
      else if (await spfPasses(domain, ip, lookup)) add('spf', 'ok', 'spf_ok', { ip });
      else add('spf', 'error', 'spf_omits_server', { ip, mechanism: `${isIP(ip) === 6 ? 'ip6' : 'ip4'}:${ip}` });
    }),
  );

  const keys = of('dkim');
  if (keys.length === 0) add('dkim', 'warning', 'dkim_no_key');
  for (const key of keys) {
    const name = fullName(key.zona, domain);
    const selector = key.zona.replace(/\._domainkey$/, '');
    sections.push(
      guarded('dkim', name, async () => {
        const found = texts(await lookup(name, 'TXT'));
        const want = dkimKey(key.value);
        if (found.some((t) => dkimKey(t) === want)) add('dkim', 'ok', 'dkim_ok', { selector });
        else if (found.some((t) => dkimKey(t) !== null)) add('dkim', 'error', 'dkim_mismatch', { selector, name });
        else add('dkim', 'error', 'dkim_missing', { selector, name });
      }),
    );
  }

  sections.push(
    guarded('dmarc', `_dmarc.${domain}`, async () => {
      const dmarc = texts(await lookup(`_dmarc.${domain}`, 'TXT')).filter((t) => /^v=DMARC1\s*;/i.test(t));
      const policy = dmarc.length === 1 ? /(?:^|;)\s*p=\s*(\w+)/i.exec(dmarc[0]!)?.[1]?.toLowerCase() : undefined;
      if (!policy) add('dmarc', 'error', 'dmarc_missing', { domain, record: of('dmarc')[0]!.value });
      else add('dmarc', 'ok', 'dmarc_ok', { policy });
    }),
  );

  sections.push(
    guarded('mtasts', `_mta-sts.${domain}`, async () => {
      const sts = texts(await lookup(`_mta-sts.${domain}`, 'TXT')).filter((t) => /^v=STSv1\s*;/i.test(t));
      if (sts.length) add('mtasts', 'ok', 'mtasts_ok');
      else if (input.mtaSts) add('mtasts', 'warning', 'mtasts_missing', { domain });
      else add('mtasts', 'ok', 'mtasts_off');
    }),
  );

  const live = await Promise.all([...sections, ...wanted.map((w) => liveOf(w, domain, lookup))]);
  return { findings: [...found.values()].flat(), live: live.slice(sections.length) as Live[] };
}
