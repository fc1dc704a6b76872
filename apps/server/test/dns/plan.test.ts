import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FieldErrors } from '../../src/http/errors.ts';
import { groupSets, rrsetKey } from '../../src/modules/dns/history/record.ts';
import { rrsetView } from '../../src/modules/dns/history/view.ts';
import type { Refusal } from '../../src/modules/dns/import/parse.ts';
import { type Offered, type PlanMode, planChange } from '../../src/modules/dns/import/plan.ts';
import { checkZoneRules, type RuleRecord } from '../../src/modules/dns/rules.ts';
import type { DnsRecordRow } from '../../src/modules/dns/tables.ts';
import type { NewRecord } from '../../src/modules/dns/template.ts';
import { ZoneIndex } from '../../src/modules/dns/zone-index.ts';

const ZONE = 'zona.es';
const TTL = 3600;

// Few names and values, so that records meet: CNAMEs beside data, cuts with names below them,
// in-zone name servers with and without addresses, duplicates.
const VALUES: Record<string, string[]> = {
  A: ['192.0.2.1', '192.0.2.2'],
  AAAA: ['2001:db8::1'],
  ANAME: ['t.example.net.'],
  CNAME: ['t.example.net.', 'a.zona.es.'],
  NS: ['ns.zona.es.', 'ns1.example.net.', 'x.sub.zona.es.', 'a.b.zona.es.', 'sub.zona.es.'],
  MX: ['mx.example.net.'],
  TXT: ['hi', 'yo'],
};
const newRecord: fc.Arbitrary<NewRecord> = fc
  .record({
    zona: fc.constantFrom('', 'a', 'b', 'a.b', 'c.a.b', 'ns', 'sub', 'x.sub'),
    type: fc.constantFrom(...Object.keys(VALUES)),
    pick: fc.nat(),
    ttl: fc.constantFrom(0, 300, 3600),
    priority: fc.constantFrom(10, 20),
  })
  .map(({ zona, type, pick, ttl, priority }) => ({
    zona,
    type,
    ttl,
    value: VALUES[type][pick % VALUES[type].length],
    priority: type === 'MX' ? priority : null,
    dynamic_value: null,
  }));
const zoneCase = fc.record({
  offered: fc.array(newRecord, { maxLength: 14 }),
  current: fc.array(newRecord, { maxLength: 10 }),
  mode: fc.constantFrom<PlanMode>('replace', 'merge'),
});

const offer = (records: NewRecord[]): Offered[] => records.map((record, i) => ({ record, line: i + 1, source: `line ${i + 1}` }));
const stored = (records: NewRecord[]): DnsRecordRow[] => records.map((r, i) => ({ ...r, id: i + 1, item_id: 1, created_at: 0 }));

/**
 * The plan as the first version of the planner made it, the obvious way: each record checked by
 * scanning a list of all the others, a duplicate found by scanning the records before it. Slow
 * (quadratic and worse) but plainly right; the planner must give the same plan.
 */
function referencePlan(offered: Offered[], current: DnsRecordRow[], mode: PlanMode) {
  const refused: Refusal[] = [];
  const refuse = (o: Offered, key: string, params?: Refusal['params']) => refused.push({ line: o.line, source: o.source, key, params });
  const same = (a: NewRecord, b: NewRecord) => a.zona === b.zona && a.type === b.type && a.value === b.value && a.priority === b.priority;
  const unique: Offered[] = [];
  for (const o of offered) {
    if (unique.some((u) => same(u.record, o.record))) refuse(o, 'dns.duplicate');
    else unique.push(o);
  }
  const offeredKeys = new Set(unique.map((o) => rrsetKey(o.record)));
  const fileHasApexNs = unique.some((o) => o.record.zona === '' && o.record.type === 'NS');
  const kept = current.filter((r) =>
    mode === 'merge' ? !offeredKeys.has(rrsetKey(r)) : r.zona === '' && r.type === 'NS' && !fileHasApexNs,
  );
  const otherData = new Set([...kept, ...unique.map((o) => o.record)].filter((r) => r.type !== 'CNAME').map((r) => r.zona));
  let left = unique.filter((o) => {
    if (o.record.type !== 'CNAME' || !otherData.has(o.record.zona)) return true;
    refuse(o, 'dns.cname_exclusive');
    return false;
  });
  for (let round = 0; round < 5; round++) {
    const refusedNow: Offered[] = [];
    for (const o of left) {
      const others: RuleRecord[] = [...kept, ...left.filter((x) => x !== o && !refusedNow.includes(x)).map((x) => x.record)];
      try {
        checkZoneRules(o.record, others, ZONE);
      } catch (error) {
        if (!(error instanceof FieldErrors)) throw error;
        refuse(o, error.fields[0].key, error.fields[0].params);
        refusedNow.push(o);
      }
    }
    if (refusedNow.length === 0) break;
    left = left.filter((o) => !refusedNow.includes(o));
  }
  const accepted = left.map((o) => o.record);
  const first = (r: NewRecord) => accepted.find((x) => rrsetKey(x) === rrsetKey(r))?.ttl ?? r.ttl;
  const after = groupSets([...kept, ...accepted.map((r) => ({ ...r, ttl: first(r) }))]);
  const before = groupSets(current);
  const served = (rs: NewRecord[]) => {
    const [view] = rrsetView(rs, ZONE, TTL);
    return JSON.stringify([view.ttl, [...view.values].sort()]);
  };
  const sets = new Map<string, NewRecord[]>();
  for (const [key, rs] of after) if (!before.has(key) || served(before.get(key)!) !== served(rs)) sets.set(key, rs);
  for (const key of before.keys()) if (!after.has(key)) sets.set(key, []);
  return { sets, refused: refused.sort((a, b) => a.line - b.line) };
}

const sorted = (sets: Map<string, NewRecord[]>) => [...sets].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** The refusal of a candidate as [key, params], or 'accepted'. */
function verdict(candidate: RuleRecord, others: RuleRecord[] | ZoneIndex) {
  try {
    checkZoneRules(candidate, others, ZONE);
    return 'accepted';
  } catch (error) {
    if (!(error instanceof FieldErrors)) throw error;
    return [error.fields[0].key, error.fields[0].params];
  }
}

describe('the import planner', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('gives every record the verdict of the zone rules whether the zone is a list or an index, records taken out included', () => {
    fc.assert(
      fc.property(fc.array(newRecord, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 4 }), newRecord, (zone, gone, candidate) => {
        const index = new ZoneIndex(zone);
        const left = [...zone];
        for (const g of gone) {
          if (left.length === 0) break;
          const [out] = left.splice(g % left.length, 1);
          index.remove(out);
        }
        expect(verdict(candidate, index)).toEqual(verdict(candidate, left));
      }),
      { numRuns: 2000 },
    );
  });

  it('makes the plan the obvious quadratic planner makes, on small zones of records that clash', () => {
    fc.assert(
      fc.property(zoneCase, ({ offered, current, mode }) => {
        const rows = stored(current);
        const plan = planChange(offer(offered), rows, ZONE, mode, TTL);
        const reference = referencePlan(offer(offered), rows, mode);
        expect(plan.refused).toEqual(reference.refused);
        expect(sorted(plan.sets)).toEqual(sorted(reference.sets));
      }),
      { numRuns: 2000 },
    );
  });

  it('asks the zone a fixed number of questions per record: twice the file, twice the questions', () => {
    const asked = { n: 0 };
    for (const method of ['count', 'has', 'hasBelow', 'add', 'remove'] as const) {
      const original = ZoneIndex.prototype[method] as (...args: unknown[]) => unknown;
      const counted = function (this: ZoneIndex, ...args: unknown[]) {
        asked.n++;
        return original.apply(this, args);
      };
      vi.spyOn(ZoneIndex.prototype, method).mockImplementation(counted as never);
    }
    const file = (n: number) =>
      offer(
        Array.from({ length: n }, (_, i) => ({
          zona: `h${i}.s${i % 10}`,
          type: i % 3 === 0 ? 'NS' : 'A',
          ttl: 0,
          value: i % 3 === 0 ? (i + 1 < n ? `h${i + 1}.s${(i + 1) % 10}.zona.es.` : 'ns.example.net.') : `192.0.2.${i % 250}`,
          priority: null,
          dynamic_value: null,
        })),
      );
    const questions = (n: number) => {
      asked.n = 0;
      planChange(file(n), [], ZONE, 'replace', TTL);
      return asked.n;
    };
    const small = questions(1000);
    expect(small).toBeGreaterThan(1000);
    const ratio = questions(2000) / small;
    expect(ratio).toBeGreaterThan(1.95);
    expect(ratio).toBeLessThan(2.05);
  });
});
