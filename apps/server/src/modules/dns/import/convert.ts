import { DNS_TYPES, type DnsType } from '@atalaya/contract';
import { FieldErrors } from '../../../http/errors.ts';
import { normaliseZona } from '../names.ts';
import type { NewRecord } from '../template.ts';
import { normalisePriority, normaliseValue } from '../values.ts';
import { type ParsedRecord, qualify, SyntaxProblem, type Word } from './parse.ts';

/** Why a line cannot become a record of the panel: a translated key and its parameters. */
export class LineRefusal extends Error {
  readonly key: string;
  readonly params: Record<string, string | number>;
  constructor(key: string, params: Record<string, string | number> = {}) {
    super(key);
    this.key = key;
    this.params = params;
  }
}

/** The type number PowerDNS gives ALIAS, which the panel's export writes for ANAME (RFC 3597). */
const ANAME_GENERIC = 'TYPE65401';

const served = (type: string): type is DnsType => (DNS_TYPES as readonly string[]).includes(type);

/** A name in wire format (hex of RFC 3597 generic RDATA) back to text, for TYPE65401. */
function wireName(rdata: Word[]): string {
  if (rdata[0]?.text !== '\\#') throw new SyntaxProblem();
  const length = Number(rdata[1]?.text);
  const bytes = Buffer.from(
    rdata
      .slice(2)
      .map((w) => w.text)
      .join(''),
    'hex',
  );
  if (!Number.isInteger(length) || bytes.length !== length) throw new SyntaxProblem();
  const labels: string[] = [];
  for (let i = 0; i < bytes.length; ) {
    const size = bytes[i];
    if (size === 0) return `${labels.join('.')}.`;
    labels.push(bytes.subarray(i + 1, i + 1 + size).toString('latin1'));
    i += size + 1;
  }
  throw new SyntaxProblem();
}

const texts = (words: Word[]) => words.map((w) => w.text);

function plain(rdata: Word[], count: number): string[] {
  if (rdata.length !== count || rdata.some((w) => w.quoted)) throw new SyntaxProblem();
  return texts(rdata);
}

const host = (word: Word, origin: string) => `${qualify(word, origin)}.`;

/** The 16-bit number of an MX preference or SRV priority. */
function preference(text: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new LineRefusal('dns.import_syntax');
  return Number(text);
}

/** Type, priority and value as the record dialog would take them, from the line's RDATA. */
function panelFields(record: ParsedRecord): { type: DnsType; priority: number | null; value: string } {
  const { rdata, origin } = record;
  const type = record.type === ANAME_GENERIC ? 'ANAME' : record.type;
  if (type === 'SOA') throw new LineRefusal('dns.import_soa');
  if (!served(type)) throw new LineRefusal('dns.import_type', { type });
  switch (type) {
    case 'A':
    case 'AAAA':
      return { type, priority: null, value: plain(rdata, 1)[0] };
    case 'CNAME':
    case 'NS':
      plain(rdata, 1);
      return { type, priority: null, value: host(rdata[0], origin) };
    case 'ANAME':
      if (record.type === ANAME_GENERIC) return { type, priority: null, value: wireName(rdata) };
      plain(rdata, 1);
      return { type, priority: null, value: host(rdata[0], origin) };
    case 'MX': {
      const [pref] = plain(rdata, 2);
      return { type, priority: preference(pref), value: host(rdata[1], origin) };
    }
    case 'SRV': {
      const [priority, weight, port] = plain(rdata, 4);
      return { type, priority: preference(priority), value: `${weight} ${port} ${host(rdata[3], origin)}` };
    }
    case 'CAA': {
      if (rdata.length !== 3 || rdata[0].quoted || rdata[1].quoted) throw new SyntaxProblem();
      return { type, priority: null, value: `${rdata[0].text} ${rdata[1].text.toLowerCase()} "${rdata[2].text}"` };
    }
    case 'TXT': {
      // The panel keeps a TXT record as one text: its character-strings are joined, as SPF (RFC
      // 7208 §3.3) and DKIM read them; the export cuts it again at 255 bytes.
      if (rdata.length === 0) throw new SyntaxProblem();
      const bytes = Buffer.concat(rdata.map((w) => w.bytes));
      const text = bytes.toString('utf8');
      if (!Buffer.from(text, 'utf8').equals(bytes)) throw new LineRefusal('dns.txt_invalid');
      return { type, priority: null, value: text };
    }
  }
}

/**
 * One line of the file as a record of the panel, checked as the record dialog checks it (the
 * same normalisers, so an imported record is stored as an edited one would be). `ttl` null: the
 * provider's default (0).
 */
export function toPanelRecord(record: ParsedRecord, zone: string): NewRecord {
  const { type, priority, value } = panelFields(record);
  try {
    return {
      zona: normaliseZona(`${record.owner}.`, zone, type),
      type,
      ttl: record.ttl ?? 0,
      priority: normalisePriority(type, priority ?? undefined),
      value: normaliseValue(type, value),
      dynamic_value: null,
    };
  } catch (error) {
    if (error instanceof FieldErrors) throw new LineRefusal(error.fields[0].key, error.fields[0].params ?? {});
    throw error;
  }
}
