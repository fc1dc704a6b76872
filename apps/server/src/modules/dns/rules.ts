import { FieldErrors } from '../../http/errors.ts';
import { inZone } from './names.ts';

/** What the zone rules need of a record. */
export interface RuleRecord {
  id?: number;
  zona: string;
  type: string;
  priority: number | null;
  value: string;
}

const isBelow = (name: string, parent: string) => name.endsWith(`.${parent}`);
const isAddress = (r: RuleRecord) => r.type === 'A' || r.type === 'AAAA';

/** In-zone name servers (relative names) of every NS record: BIND refuses a zone whose such server has no address. */
const nsHostsInZone = (records: RuleRecord[], zone: string) =>
  new Set(records.filter((r) => r.type === 'NS').flatMap((r) => inZone(r.value, zone) ?? []));

/**
 * What the zone rules ask of the zone a record goes into (the zone without that record): a list
 * answers by scanning it (one record's edit), a `ZoneIndex` (zone-index.ts) from its maps (an
 * import, which checks every record of the file against all the others).
 */
export interface ZoneView {
  /** Records at the name, of the type when one is given. */
  count(zona: string, type?: string): number;
  /** Whether the zone holds a record equal to this one (name, type, value, priority). */
  has(record: RuleRecord): boolean;
  /** Whether any record lies below the name (not at it). */
  hasBelow(zona: string): boolean;
}

/** The names a name lies below, the zone's top-most first: `a.b.c` → `c`, `b.c`. */
export function ancestors(zona: string): string[] {
  const found: string[] = [];
  for (let dot = zona.lastIndexOf('.'); dot > 0; dot = zona.lastIndexOf('.', dot - 1)) found.push(zona.slice(dot + 1));
  return found;
}

/** A list of records as a ZoneView, each question a scan of it. */
function listView(records: RuleRecord[]): ZoneView {
  return {
    count: (zona, type) => records.filter((r) => r.zona === zona && (type === undefined || r.type === type)).length,
    has: (c) => records.some((r) => r.zona === c.zona && r.type === c.type && r.value === c.value && r.priority === c.priority),
    hasBelow: (zona) => records.some((r) => isBelow(r.zona, zona)),
  };
}

/** A delegated subzone's name: an NS record below the apex. */
const isCut = (zone: ZoneView, name: string) => name !== '' && zone.count(name, 'NS') > 0;

/**
 * The zone-wide rules a new or edited record must keep (RFC 1034 §3.6.2 for CNAME, the delegation
 * cut for NS below the apex): `others` is the zone without the record being edited.
 */
export function checkZoneRules(candidate: RuleRecord, others: RuleRecord[] | ZoneView, zone: string) {
  checkRules(candidate, Array.isArray(others) ? listView(others) : others, zone);
}

function checkRules(candidate: RuleRecord, others: ZoneView, zone: string) {
  const { zona, type } = candidate;
  const here = others.count(zona);
  if (type === 'CNAME' && zona === '') throw FieldErrors.one('zona', 'dns.cname_apex');
  if ((type === 'CNAME' && here > 0) || (type !== 'CNAME' && others.count(zona, 'CNAME') > 0)) {
    throw FieldErrors.one('zona', 'dns.cname_exclusive');
  }
  const anameClash = ['A', 'AAAA', 'ANAME'];
  if (
    (type === 'ANAME' && anameClash.some((t) => others.count(zona, t) > 0)) ||
    (anameClash.includes(type) && others.count(zona, 'ANAME') > 0)
  ) {
    throw FieldErrors.one('zona', 'dns.aname_conflict');
  }
  if (others.has(candidate)) throw FieldErrors.one('value', 'dns.duplicate');
  const cut = ancestors(zona).find((name) => isCut(others, name));
  if (cut !== undefined) throw FieldErrors.one('zona', 'dns.delegated', { name: `${cut}.${zone}` });
  if (zona !== '' && here > 0 && (type === 'NS') !== (others.count(zona, 'NS') === here)) {
    throw FieldErrors.one('zona', 'dns.delegation_conflict');
  }
  if (type === 'NS' && zona !== '' && others.hasBelow(zona)) throw FieldErrors.one('zona', 'dns.delegation_conflict');
  if (type === 'NS') checkNameServerAddress(candidate, others, zone);
}

function checkNameServerAddress(candidate: RuleRecord, others: ZoneView, zone: string) {
  const host = inZone(candidate.value, zone);
  if (host === null) return;
  // The server's name at or below a cut (another one's, or this record's own) is not served by this zone.
  const isOwnCut = (name: string) => candidate.zona !== '' && name === candidate.zona;
  const underCut = [host, ...ancestors(host)].some((name) => isCut(others, name) || isOwnCut(name));
  if (underCut || others.count(host, 'A') + others.count(host, 'AAAA') === 0) {
    throw FieldErrors.one('value', 'dns.ns_needs_address', { host: candidate.value });
  }
}

type Blocker = { key: string; params?: Record<string, string> } | null;

/**
 * Why each record cannot be deleted now, if it cannot: the last apex NS, or the last address of an
 * in-zone name server. Built once per zone, so listing 5,000 records stays linear.
 */
export function deleteBlockers(all: RuleRecord[], zone: string): (record: RuleRecord) => Blocker {
  const apexNs = all.filter((r) => r.type === 'NS' && r.zona === '').length;
  const hosts = nsHostsInZone(all, zone);
  const addresses = new Map<string, number>();
  for (const r of all) if (isAddress(r)) addresses.set(r.zona, (addresses.get(r.zona) ?? 0) + 1);
  return (record) => {
    if (record.type === 'NS' && record.zona === '' && apexNs <= 1) return { key: 'dns.last_ns' };
    if (isAddress(record) && hosts.has(record.zona) && (addresses.get(record.zona) ?? 0) <= 1) {
      return { key: 'dns.needed_by_ns', params: { host: `${record.zona}.${zone}` } };
    }
    return null;
  };
}

/** What "delete all" keeps: the apex NS set (it makes the zone) and the addresses its in-zone servers need. */
export function keptByDeleteAll(records: RuleRecord[], zone: string): (r: RuleRecord) => boolean {
  const apexHosts = new Set(records.filter((r) => r.type === 'NS' && r.zona === '').flatMap((r) => inZone(r.value, zone) ?? []));
  return (r) => (r.type === 'NS' && r.zona === '') || (isAddress(r) && apexHosts.has(r.zona));
}
