import { fqdn } from '../names.ts';
import { recordContent } from '../rrsets.ts';
import type { NewRecord } from '../template.ts';
import { rrsetKey } from './record.ts';

/** Records grouped as RRsets the way the preview and the history show them: name, TTL as served, values. */
export function rrsetView(records: NewRecord[], zone: string, defaultTtl: number) {
  const sets = new Map<string, NewRecord[]>();
  for (const r of records) sets.set(rrsetKey(r), [...(sets.get(rrsetKey(r)) ?? []), r]);
  return [...sets.values()].map((rs) => ({
    name: fqdn(rs[0].zona, zone),
    type: rs[0].type,
    ttl: rs[0].ttl || defaultTtl,
    values: rs.map(recordContent),
  }));
}
