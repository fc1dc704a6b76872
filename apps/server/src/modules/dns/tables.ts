import type { Generated, Selectable } from 'kysely';

/** One zone per item with a hosting service; `version` grows with every change (it is the SOA serial). */
export interface DnsZoneTable {
  item_id: number;
  name: string;
  version: Generated<number>;
  /** The last version a driver applied, and when (Unix seconds). */
  applied_version: Generated<number>;
  applied_at: number | null;
  /** The local driver's "server": the RRsets it last applied, as JSON. */
  served: string | null;
  created_at: number;
  /** Signing: off, signing, on, withdrawing (DS going), waiting (its TTL), unsigning (decision 034). */
  dnssec: Generated<string>;
  /** When the waiting step ends (Unix seconds). */
  dnssec_due_at: number | null;
}

export interface DnsRecordTable {
  id: Generated<number>;
  item_id: number;
  /** The name relative to the zone, punycode, '' at the apex. */
  zona: string;
  type: string;
  ttl: number;
  priority: number | null;
  value: string;
  dynamic_value: string | null;
  created_at: number;
}

/** The dns area's tables; part of the store's Database type. */
export type DnsTables = { dns_zone: DnsZoneTable; dns_record: DnsRecordTable };
export type DnsRecordRow = Selectable<DnsRecordTable>;
