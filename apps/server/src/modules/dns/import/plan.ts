import { FieldErrors } from '../../../http/errors.ts';
import { groupSets, rrsetKey } from '../history/record.ts';
import { rrsetView } from '../history/view.ts';
import { checkZoneRules } from '../rules.ts';
import type { DnsRecordRow } from '../tables.ts';
import type { NewRecord } from '../template.ts';
import { ZoneIndex } from '../zone-index.ts';
import { LineRefusal, toPanelRecord } from './convert.ts';
import { type ParsedRecord, type Refusal, SyntaxProblem } from './parse.ts';

/** A record offered by a file or a template, with the line it came from. */
export interface Offered {
  record: NewRecord;
  line: number;
  source: string;
}

/** An RRset as the preview shows it: the full name, its TTL as served, its values in order. */
export interface RRsetView {
  name: string;
  type: string;
  ttl: number;
  values: string[];
}

/**
 * What applying will do: the RRsets added, changed (before and after) and removed, and the lines
 * refused with their reason; `sets` holds, for each RRset it changes, the records it will hold.
 */
export interface ImportPlan {
  added: RRsetView[];
  changed: { before: RRsetView; after: RRsetView }[];
  removed: RRsetView[];
  refused: Refusal[];
  sets: Map<string, NewRecord[]>;
}

/**
 * `replace` (an import): the zone becomes the file, but for the apex NS, kept when the file has
 * none, since a zone without them is not served. `merge` (a template): the RRsets offered replace
 * the zone's RRsets of the same name and type, the others stay.
 */
export type PlanMode = 'replace' | 'merge';

/** The lines of a parsed file as records of the panel, the unreadable ones refused. */
export function offeredLines(records: ParsedRecord[], zone: string, refused: Refusal[]): Offered[] {
  const offered: Offered[] = [];
  for (const parsed of records) {
    try {
      offered.push({ record: toPanelRecord(parsed, zone), line: parsed.line, source: parsed.source });
    } catch (error) {
      if (error instanceof LineRefusal) refused.push({ line: parsed.line, source: parsed.source, key: error.key, params: error.params });
      else if (error instanceof SyntaxProblem) refused.push({ line: parsed.line, source: parsed.source, key: 'dns.import_syntax' });
      else throw error;
    }
  }
  return offered;
}

/** `localeCompare`'s order, without building a collator for each of a large plan's comparisons. */
const names = new Intl.Collator();

const recordKey = (r: NewRecord) => `${r.zona}\u0000${r.type}\u0000${r.priority}\u0000${r.value}`;

/**
 * Offered records whose name or RRset the zone's rules refuse, until what is left keeps them all.
 * Each record is checked against an index of the rest (`ZoneIndex`), so a round is linear in the
 * zone's size: the zone of a 10,000-line file is checked in one pass, not 10,000 scans of it.
 */
function keepRules(
  offered: Offered[],
  kept: NewRecord[],
  zone: string,
  refuse: (o: Offered, key: string, params?: Refusal['params']) => void,
) {
  // A CNAME beside other data is the CNAME's fault (RFC 1034 §3.6.2): the other data stays.
  const otherData = new Set<string>();
  for (const r of kept) if (r.type !== 'CNAME') otherData.add(r.zona);
  for (const o of offered) if (o.record.type !== 'CNAME') otherData.add(o.record.zona);
  let left = offered.filter((o) => {
    if (o.record.type !== 'CNAME' || !otherData.has(o.record.zona)) return true;
    refuse(o, 'dns.cname_exclusive');
    return false;
  });
  const index = new ZoneIndex(kept);
  for (const o of left) index.add(o.record);
  // One refusal can make another record wrong (an NS whose address went): check again until stable.
  // Each record is checked against the others (itself taken out of the index), a record refused
  // earlier in the round no longer among them.
  for (let round = 0; round < 5; round++) {
    const refusedNow = new Set<Offered>();
    for (const o of left) {
      index.remove(o.record);
      try {
        checkZoneRules(o.record, index, zone);
        index.add(o.record);
      } catch (error) {
        if (!(error instanceof FieldErrors)) throw error;
        refuse(o, error.fields[0].key, error.fields[0].params);
        refusedNow.add(o);
      }
    }
    if (refusedNow.size === 0) break;
    left = left.filter((o) => !refusedNow.has(o));
  }
  return left;
}

/**
 * What applying `offered` to the zone's `current` records does. Records of one RRset share the
 * first one's TTL (as served, and as BIND loads a file); a record offered twice is refused the
 * second time. An RRset whose records and TTL as served do not change is left as it is.
 */
export function planChange(
  offered: Offered[],
  current: DnsRecordRow[],
  zone: string,
  mode: PlanMode,
  defaultTtl: number,
  refused: Refusal[] = [],
): ImportPlan {
  const refuse = (o: Offered, key: string, params?: Refusal['params']) => refused.push({ line: o.line, source: o.source, key, params });
  const unique: Offered[] = [];
  const seen = new Set<string>();
  for (const o of offered) {
    const key = recordKey(o.record);
    if (seen.has(key)) refuse(o, 'dns.duplicate');
    else {
      seen.add(key);
      unique.push(o);
    }
  }
  const offeredKeys = new Set(unique.map((o) => rrsetKey(o.record)));
  const fileHasApexNs = unique.some((o) => o.record.zona === '' && o.record.type === 'NS');
  const kept = current.filter((r) =>
    mode === 'merge' ? !offeredKeys.has(rrsetKey(r)) : r.zona === '' && r.type === 'NS' && !fileHasApexNs,
  );
  const accepted = keepRules(unique, kept, zone, refuse).map((o) => o.record);
  const firstTtl = new Map<string, number>();
  for (const r of accepted) if (!firstTtl.has(rrsetKey(r))) firstTtl.set(rrsetKey(r), r.ttl);
  const after = groupSets([...kept, ...accepted.map((r) => ({ ...r, ttl: firstTtl.get(rrsetKey(r)) ?? r.ttl }))]);
  const before = groupSets(current);

  const view = (records: NewRecord[]): RRsetView => rrsetView(records, zone, defaultTtl)[0];
  const served = (records: NewRecord[]) => JSON.stringify([view(records).ttl, [...view(records).values].sort()]);
  const plan: ImportPlan = { added: [], changed: [], removed: [], refused, sets: new Map() };
  for (const [key, records] of after) {
    const old = before.get(key);
    if (!old) plan.added.push(view(records));
    else if (served(old) !== served(records)) plan.changed.push({ before: view(old), after: view(records) });
    else continue;
    plan.sets.set(key, records);
  }
  for (const [key, records] of before) {
    if (after.has(key)) continue;
    plan.removed.push(view(records));
    plan.sets.set(key, []);
  }
  const order = (a: RRsetView, b: RRsetView) => (a.name === b.name ? names.compare(a.type, b.type) : names.compare(a.name, b.name));
  plan.added.sort(order);
  plan.removed.sort(order);
  plan.changed.sort((a, b) => order(a.after, b.after));
  refused.sort((a, b) => a.line - b.line);
  return plan;
}
