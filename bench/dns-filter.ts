/**
 * docs/design.md#budgets: a zone of 5,000 records stays usable. Times the DNS list's pure filter (the work of
 * one keystroke: type filter, then every word over the searchable fields, then one page) over 5,000
 * generated records, typing queries one character at a time.
 */
import { DNS_TTLS, DNS_TYPES, type DnsRecord } from '@atalaya/contract';
import { pageOf } from '../apps/web/src/components/ui/listing.ts';
import { dnsHaystacks, filterDns, type TypeFilter } from '../apps/web/src/features/dns/filter.ts';
import type { BenchContext } from './scenarios.ts';

export const DNS_RECORDS = 5000;

export function generateRecords(count: number): DnsRecord[] {
  return Array.from({ length: count }, (_, i) => {
    const type = DNS_TYPES[i % DNS_TYPES.length];
    const zona = `host-${i}.sub${i % 37}`;
    return {
      id: i + 1,
      zona,
      type,
      reference: `${zona}.zona.es`,
      referencePunycode: `${zona}.zona.es`,
      ttl: DNS_TTLS[i % DNS_TTLS.length],
      priority: type === 'MX' || type === 'SRV' ? 20 : null,
      value: type === 'TXT' ? `v=spf1 include:_spf${i}.example.net ~all` : `192.0.${i % 256}.${(i * 7) % 256}`,
      dynamicValue: i % 50 === 0 ? '{webIp}' : null,
      eliminable: true,
    };
  });
}

const ttlLabel = (ttl: number) => (ttl === 0 ? 'Por defecto' : `${ttl / 60} min`);

/** Per-keystroke milliseconds for typing each query, over every type filter. */
export function measureFilter(records: DnsRecord[]) {
  const built = performance.now();
  const haystacks = dnsHaystacks(records, ttlLabel);
  const buildMs = performance.now() - built;
  const queries = ['host-4999', 'mail zona', 'v=spf1 include', '192.0.13', 'defecto sub3'];
  const types: TypeFilter[] = ['ALL', 'A', 'TXT'];
  const times: number[] = [];
  for (let warm = 0; warm < 3; warm++) filterDns(records, haystacks, 'ALL', 'warm');
  for (const type of types) {
    for (const query of queries) {
      for (let n = 1; n <= query.length; n++) {
        const start = performance.now();
        pageOf(filterDns(records, haystacks, type, query.slice(0, n)), 1, 10);
        times.push(performance.now() - start);
      }
    }
  }
  times.sort((a, b) => a - b);
  return {
    buildMs,
    keystrokes: times.length,
    mean: times.reduce((a, b) => a + b, 0) / times.length,
    p99: times[Math.floor(times.length * 0.99)],
    max: times.at(-1)!,
  };
}

export async function dnsFilterScenario(_ctx?: BenchContext) {
  const r = measureFilter(generateRecords(DNS_RECORDS));
  const verdict = r.max < 16 ? 'within' : 'OVER';
  console.log(
    `DNS list filter, ${DNS_RECORDS} records: ${r.keystrokes} keystrokes, mean ${r.mean.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, max ${r.max.toFixed(2)} ms per keystroke (${verdict} the 16 ms budget; search texts built once per list load in ${r.buildMs.toFixed(1)} ms)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await dnsFilterScenario();
