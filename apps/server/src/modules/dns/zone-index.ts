import { ancestors, type RuleRecord, type ZoneView } from './rules.ts';

const recordKey = (r: RuleRecord) => `${r.zona}\u0000${r.type}\u0000${r.priority}\u0000${r.value}`;

function bump(counts: Map<string, number>, key: string, by: number) {
  const n = (counts.get(key) ?? 0) + by;
  if (n === 0) counts.delete(key);
  else counts.set(key, n);
}

/**
 * A zone as counts kept by name, by name and type, by record and by the names each record lies
 * below, so that each question of the zone rules costs a few map lookups instead of a scan of the
 * zone: checking every record of a 10,000-line import against the rest is then linear, not
 * quadratic. Records come and go (`add`, `remove`) as the import refuses some of them.
 */
export class ZoneIndex implements ZoneView {
  private readonly atName = new Map<string, number>();
  private readonly atNameType = new Map<string, number>();
  private readonly records = new Map<string, number>();
  private readonly below = new Map<string, number>();

  constructor(records: Iterable<RuleRecord> = []) {
    for (const r of records) this.add(r);
  }

  add(r: RuleRecord) {
    this.change(r, 1);
  }

  remove(r: RuleRecord) {
    this.change(r, -1);
  }

  private change(r: RuleRecord, by: number) {
    bump(this.atName, r.zona, by);
    bump(this.atNameType, `${r.zona}\u0000${r.type}`, by);
    bump(this.records, recordKey(r), by);
    for (const name of ancestors(r.zona)) bump(this.below, name, by);
  }

  count(zona: string, type?: string) {
    return (type === undefined ? this.atName.get(zona) : this.atNameType.get(`${zona}\u0000${type}`)) ?? 0;
  }

  has(r: RuleRecord) {
    return this.records.has(recordKey(r));
  }

  hasBelow(zona: string) {
    return this.below.has(zona);
  }
}
