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

/** Names (relative) holding an NS record below the apex: delegated subzones. */
const delegations = (records: RuleRecord[]) => new Set(records.filter((r) => r.type === 'NS' && r.zona !== '').map((r) => r.zona));

/** In-zone name servers (relative names) of every NS record: BIND refuses a zone whose such server has no address. */
const nsHostsInZone = (records: RuleRecord[], zone: string) =>
  new Set(records.filter((r) => r.type === 'NS').flatMap((r) => inZone(r.value, zone) ?? []));

/**
 * The zone-wide rules a new or edited record must keep (RFC 1034 §3.6.2 for CNAME, the delegation
 * cut for NS below the apex): `others` is the zone without the record being edited.
 */
export function checkZoneRules(candidate: RuleRecord, others: RuleRecord[], zone: string) {
  const { zona, type } = candidate;
  const sameName = others.filter((r) => r.zona === zona);
  if (type === 'CNAME' && zona === '') throw FieldErrors.one('zona', 'dns.cname_apex');
  if ((type === 'CNAME' && sameName.length > 0) || (type !== 'CNAME' && sameName.some((r) => r.type === 'CNAME'))) {
    throw FieldErrors.one('zona', 'dns.cname_exclusive');
  }
  const anameClash = ['A', 'AAAA', 'ANAME'];
  if (
    (type === 'ANAME' && sameName.some((r) => anameClash.includes(r.type))) ||
    (anameClash.includes(type) && sameName.some((r) => r.type === 'ANAME'))
  ) {
    throw FieldErrors.one('zona', 'dns.aname_conflict');
  }
  if (sameName.some((r) => r.type === type && r.value === candidate.value && r.priority === candidate.priority)) {
    throw FieldErrors.one('value', 'dns.duplicate');
  }
  for (const cut of delegations(others)) {
    if (isBelow(zona, cut)) throw FieldErrors.one('zona', 'dns.delegated', { name: `${cut}.${zone}` });
  }
  if (zona !== '' && (type === 'NS') !== sameName.every((r) => r.type === 'NS') && sameName.length > 0) {
    throw FieldErrors.one('zona', 'dns.delegation_conflict');
  }
  if (type === 'NS' && zona !== '' && others.some((r) => isBelow(r.zona, zona))) {
    throw FieldErrors.one('zona', 'dns.delegation_conflict');
  }
  if (type === 'NS') checkNameServerAddress(candidate, others, zone);
}

function checkNameServerAddress(candidate: RuleRecord, others: RuleRecord[], zone: string) {
  const host = inZone(candidate.value, zone);
  if (host === null) return;
  const cuts = [...delegations(others), ...(candidate.zona ? [candidate.zona] : [])];
  const underCut = cuts.some((cut) => host === cut || isBelow(host, cut));
  if (underCut || !others.some((r) => r.zona === host && isAddress(r))) {
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
