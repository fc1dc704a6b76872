import type { DnsRecord } from '@atalaya/contract';
import { canonicalIPv6 } from '../../src/modules/dns/values.ts';
import { dig, genericName, txtText } from './powerdns-harness.ts';

const DEFAULT_TTL = 3600;

/** A record in the form dig prints it, comparable with what PowerDNS answers. */
function expected(r: DnsRecord): string {
  if (r.type === 'MX' || r.type === 'SRV') return `${r.priority} ${r.value}`;
  if (r.type === 'AAAA') return canonicalIPv6(r.value)!;
  return r.value;
}

function normaliseServed(type: string, rdata: string): string {
  if (type === 'TXT') return txtText(rdata);
  if (type === 'ANAME') return genericName(rdata);
  if (type === 'AAAA') return canonicalIPv6(rdata) ?? rdata;
  return rdata;
}

/**
 * Differences between the listed records and what PowerDNS serves for each of their names and
 * types (values and TTL); an empty list means the zone is served exactly as listed.
 */
export async function servedDifferences(port: number, records: DnsRecord[]): Promise<string[]> {
  const groups = new Map<string, DnsRecord[]>();
  for (const r of records) {
    const key = `${r.referencePunycode}.|${r.type}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const problems: string[] = [];
  for (const [key, group] of groups) {
    const [name, type] = key.split('|');
    const answers = await dig(port, name, type === 'ANAME' ? 'TYPE65401' : type);
    const served = [...new Set(answers.map((a) => normaliseServed(type, a.rdata)))].sort();
    const listed = [...new Set(group.map((r) => (r.type === 'TXT' ? r.value : expected(r))))].sort();
    if (JSON.stringify(served) !== JSON.stringify(listed))
      problems.push(`${name} ${type}: served ${JSON.stringify(served)}, listed ${JSON.stringify(listed)}`);
    const ttl = group[0].ttl || DEFAULT_TTL;
    if (answers.some((a) => a.ttl !== ttl)) problems.push(`${name} ${type}: TTL ${answers.map((a) => a.ttl)} instead of ${ttl}`);
  }
  return problems;
}
