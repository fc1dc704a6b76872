import type { DnsSettings } from '../../drivers/dns/index.ts';
import { type StoredRecord, toRRsets } from './rrsets.ts';

/** A name in DNS wire format, as hex: RFC 3597 generic RDATA for types BIND does not know. */
function wireName(name: string): string {
  const labels = name.replace(/\.$/, '').split('.').filter(Boolean);
  const bytes = [...labels.flatMap((l) => [l.length, ...Buffer.from(l, 'ascii')]), 0];
  return Buffer.from(bytes).toString('hex').toUpperCase();
}

/**
 * The zone in BIND master-file format (RFC 1035 §5). ANAME has no BIND type, so it is written as
 * PowerDNS's ALIAS in RFC 3597 generic syntax (TYPE65401), which named-checkzone loads as is.
 */
export function exportZone(records: StoredRecord[], zone: string, version: number, settings: DnsSettings): string {
  const origin = `${zone}.`;
  const hostmaster = settings.hostmaster ?? `hostmaster.${origin}`;
  const lines = [
    `$ORIGIN ${origin}`,
    `$TTL ${settings.defaultTtl}`,
    `${origin} ${settings.defaultTtl} IN SOA ${settings.nameservers[0]} ${hostmaster} ${version} 10800 3600 604800 3600`,
  ];
  for (const set of toRRsets(records, zone, settings.defaultTtl)) {
    for (const content of set.contents) {
      if (set.type === 'ANAME') {
        const hex = wireName(content);
        lines.push(`${set.name} ${set.ttl} IN TYPE65401 \\# ${hex.length / 2} ${hex}`);
      } else {
        lines.push(`${set.name} ${set.ttl} IN ${set.type} ${content}`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}
