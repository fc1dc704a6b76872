import { fqdn } from '../names.ts';
import { recordContent } from '../rrsets.ts';
import type { NewRecord } from '../template.ts';
import { groupSets } from './record.ts';

/** Records grouped as RRsets the way the preview and the history show them: name, TTL as served, values. */
export function rrsetView(records: NewRecord[], zone: string, defaultTtl: number) {
  return [...groupSets(records).values()].map((rs) => ({
    name: fqdn(rs[0].zona, zone),
    type: rs[0].type,
    ttl: rs[0].ttl || defaultTtl,
    values: rs.map(recordContent),
  }));
}
