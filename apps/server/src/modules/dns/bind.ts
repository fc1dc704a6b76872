import { Readable } from 'node:stream';
import type { DnsSettings } from '../../drivers/dns/index.ts';
import type { Store } from '../../store/db.ts';
import { fqdn } from './names.ts';
import { recordContent, type StoredRecord } from './rrsets.ts';

/** A name in DNS wire format, as hex: RFC 3597 generic RDATA for types BIND does not know. */
function wireName(name: string): string {
  const labels = name.replace(/\.$/, '').split('.').filter(Boolean);
  const bytes = [...labels.flatMap((l) => [l.length, ...Buffer.from(l, 'ascii')]), 0];
  return Buffer.from(bytes).toString('hex').toUpperCase();
}

function header(zone: string, version: number, settings: DnsSettings) {
  const origin = `${zone}.`;
  const hostmaster = settings.hostmaster ?? `hostmaster.${origin}`;
  return [
    `$ORIGIN ${origin}`,
    `$TTL ${settings.defaultTtl}`,
    `${origin} ${settings.defaultTtl} IN SOA ${settings.nameservers[0]} ${hostmaster} ${version} 10800 3600 604800 3600`,
  ];
}

/**
 * The master-file lines of records given in (zona, type) order: the records of one RRset are
 * consecutive, and the set takes its first record's TTL (0: the default), as served. ANAME has
 * no BIND type, so it is written as PowerDNS's ALIAS in RFC 3597 generic syntax (TYPE65401),
 * which named-checkzone loads as is.
 */
function* recordLines(records: Iterable<StoredRecord>, zone: string, settings: DnsSettings, last = { key: '', ttl: 0 }) {
  for (const r of records) {
    const name = `${fqdn(r.zona, zone)}.`;
    const key = `${name} ${r.type}`;
    if (key !== last.key) last = Object.assign(last, { key, ttl: r.ttl || settings.defaultTtl });
    const content = recordContent(r);
    if (r.type === 'ANAME') {
      const hex = wireName(content);
      yield `${name} ${last.ttl} IN TYPE65401 \\# ${hex.length / 2} ${hex}`;
    } else {
      yield `${name} ${last.ttl} IN ${r.type} ${content}`;
    }
  }
}

/** The zone in BIND master-file format (RFC 1035 §5), as one text, RRsets by name then type: for records already in memory. */
export function exportZone(records: StoredRecord[], zone: string, version: number, settings: DnsSettings): string {
  const named = records.map((r, i) => ({ r, i, name: fqdn(r.zona, zone) }));
  // Stable: the records of one RRset keep their order, and its first record gives the TTL.
  named.sort((a, b) =>
    a.name === b.name ? (a.r.type === b.r.type ? a.i - b.i : a.r.type.localeCompare(b.r.type)) : a.name.localeCompare(b.name),
  );
  const lines = [
    ...header(zone, version, settings),
    ...recordLines(
      named.map((n) => n.r),
      zone,
      settings,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/** Records read per query while streaming: a 50,000-record zone is never in memory at once. */
const BATCH = 1000;

/**
 * The same master file as a stream for the reply: the records are read a batch at a time in
 * (zona, type, id) order, each batch written out before the next is read.
 */
export function streamZone(store: Store, itemId: number, zone: string, version: number, settings: DnsSettings): Readable {
  async function* chunks() {
    yield `${header(zone, version, settings).join('\n')}\n`;
    const last = { key: '', ttl: 0 };
    let after: { zona: string; type: string; id: number } | null = null;
    for (;;) {
      const from: typeof after = after;
      const batch: (StoredRecord & { id: number })[] = await store
        .selectFrom('dns_record')
        .select(['id', 'zona', 'type', 'ttl', 'priority', 'value'])
        .where('item_id', '=', itemId)
        // A row-value comparison: both stores seek to it in the (item, zona, type) index, where an OR
        // of the three cases read the zone from its start at every batch.
        .$if(from !== null, (q) => q.where((eb) => eb(eb.refTuple('zona', 'type', 'id'), '>', eb.tuple(from!.zona, from!.type, from!.id))))
        .orderBy('zona')
        .orderBy('type')
        .orderBy('id')
        .limit(BATCH)
        .execute();
      if (batch.length === 0) return;
      yield `${[...recordLines(batch, zone, settings, last)].join('\n')}\n`;
      after = batch[batch.length - 1];
      if (batch.length < BATCH) return;
    }
  }
  return Readable.from(chunks());
}
