import { ancestors, type RuleRecord, type ZoneView } from './rules.ts';

const recordKey = (r: RuleRecord) => `${r.zona}\u0000${r.type}\u0000${r.priority}\u0000${r.value}`;

// A count that falls to 0 stays in its map: the planner takes records out and puts them back.
const bump = (counts: Map<string, number>, key: string, by: number) => counts.set(key, (counts.get(key) ?? 0) + by);

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
  /** Each record's keys, made once: the planner takes a record out and puts it back for each check. */
  private readonly keys = new WeakMap<RuleRecord, { nameType: string; record: string; above: string[] }>();

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
    let keys = this.keys.get(r);
    if (!keys) {
      keys = { nameType: `${r.zona}\u0000${r.type}`, record: recordKey(r), above: ancestors(r.zona) };
      this.keys.set(r, keys);
    }
    bump(this.atName, r.zona, by);
    bump(this.atNameType, keys.nameType, by);
    bump(this.records, keys.record, by);
    for (const name of keys.above) bump(this.below, name, by);
  }

  count(zona: string, type?: string) {
    return (type === undefined ? this.atName.get(zona) : this.atNameType.get(`${zona}\u0000${type}`)) ?? 0;
  }

  has(r: RuleRecord) {
    return (this.records.get(this.keys.get(r)?.record ?? recordKey(r)) ?? 0) > 0;
  }

  hasBelow(zona: string) {
    return (this.below.get(zona) ?? 0) > 0;
  }
}
