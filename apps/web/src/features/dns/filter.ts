import { type DnsRecord, dnsSearchText } from '@atalaya/contract';
import { filterRows, normalise } from '../../components/ui/listing.ts';

/** 'All' or one record type. */
export type TypeFilter = 'ALL' | DnsRecord['type'];

/** The searchable text of every record (zone, type, reference, punycode, ttl, priority, value, dynamic value), built once per list. */
export const dnsHaystacks = (records: readonly DnsRecord[], ttlLabel: (ttl: number) => string) =>
  records.map((r) => normalise(dnsSearchText(r, ttlLabel)));

/** The records of a type (or all) holding every word of the query; what one keystroke costs. */
export function filterDns(records: readonly DnsRecord[], haystacks: readonly string[], type: TypeFilter, query: string): DnsRecord[] {
  if (type === 'ALL') return filterRows(records, haystacks, query);
  const rows: DnsRecord[] = [];
  const hays: string[] = [];
  for (let i = 0; i < records.length; i++) {
    if (records[i].type === type) {
      rows.push(records[i]);
      hays.push(haystacks[i]);
    }
  }
  return filterRows(rows, hays, query);
}
