import { domainToUnicode } from 'node:url';
import type { DnsRecord, DnsType } from '@atalaya/contract';
import { fqdn } from './names.ts';
import { deleteBlockers } from './rules.ts';
import type { DnsRecordRow } from './tables.ts';

const unicode = (name: string) => (name === '' ? '' : domainToUnicode(name) || name);

/** Shapes stored rows as the API's DNS records, with eliminable computed against the whole zone. */
export function presenter(all: DnsRecordRow[], zone: string): (row: DnsRecordRow) => DnsRecord {
  const blocked = deleteBlockers(all, zone);
  return (r) => ({
    id: r.id,
    zona: unicode(r.zona),
    type: r.type as DnsType,
    reference: unicode(fqdn(r.zona, zone)),
    referencePunycode: fqdn(r.zona, zone),
    ttl: r.ttl,
    priority: r.priority,
    value: r.value,
    dynamicValue: r.dynamic_value,
    eliminable: blocked(r) === null,
  });
}
