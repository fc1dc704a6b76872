import { type DnsType, hasPriority } from '@atalaya/contract';
import type { RRset } from '../../drivers/dns/interface.ts';
import { fqdn } from './names.ts';

export type { RRset };

export interface StoredRecord {
  zona: string;
  type: string;
  ttl: number;
  priority: number | null;
  value: string;
}

/**
 * TXT text as character-strings: the UTF-8 bytes cut into 255-byte pieces (RFC 1035 §3.3), each
 * quoted, with `"` and `\` escaped and every byte outside printable ASCII as \DDD, so any text
 * goes through PowerDNS and BIND byte for byte.
 */
export function txtContent(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  const pieces: string[] = [];
  for (let start = 0; start < bytes.length || start === 0; start += 255) {
    let piece = '';
    for (const b of bytes.subarray(start, start + 255)) {
      if (b === 0x22 || b === 0x5c) piece += `\\${String.fromCharCode(b)}`;
      else if (b >= 0x20 && b <= 0x7e) piece += String.fromCharCode(b);
      else piece += `\\${String(b).padStart(3, '0')}`;
    }
    pieces.push(`"${piece}"`);
    if (bytes.length === 0) break;
  }
  return pieces.join(' ');
}

/** The presentation-format RDATA of a stored record. */
export function recordContent(r: StoredRecord): string {
  if (r.type === 'TXT') return txtContent(r.value);
  if (hasPriority(r.type)) return `${r.priority ?? 0} ${r.value}`;
  return r.value;
}

/** Groups records into RRsets; TTL 0 is the provider's default TTL. */
export function toRRsets(records: StoredRecord[], zone: string, defaultTtl: number): RRset[] {
  const sets = new Map<string, RRset>();
  for (const r of records) {
    const name = `${fqdn(r.zona, zone)}.`;
    const key = `${name} ${r.type}`;
    const set = sets.get(key) ?? { name, type: r.type as DnsType, ttl: r.ttl || defaultTtl, contents: [] };
    set.contents.push(recordContent(r));
    sets.set(key, set);
  }
  return [...sets.values()].sort((a, b) => (a.name === b.name ? a.type.localeCompare(b.type) : a.name.localeCompare(b.name)));
}
