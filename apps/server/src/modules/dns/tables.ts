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

/** One change of a zone: the RRsets it changed, before and after, as JSON lists of records. */
export interface DnsChangeTable {
  id: Generated<number>;
  item_id: number;
  at: number;
  /** What made it: create, save, delete, restore, delete-all, import, template, revert. */
  kind: string;
  /** Who: user@realm, or the API token's name. */
  by: string;
  before: string;
  after: string;
  /** The change this one reverted, if it is a revert. */
  reverts: number | null;
}

/** The dns area's tables; part of the store's Database type. */
export type DnsTables = { dns_zone: DnsZoneTable; dns_record: DnsRecordTable; dns_change: DnsChangeTable };
export type DnsRecordRow = Selectable<DnsRecordTable>;

// DNSSEC (decision 034).

/** The local DNS driver's signing keys (the private half sealed): PowerDNS keeps its own. */
export interface DnsKeyTable {
  id: Generated<number>;
  item_id: number;
  flags: number;
  algorithm: number;
  /** Base64, as the DNSKEY record carries it. */
  public_key: string;
  private_sealed: string;
  /** 0 for a rolled-in key whose DS is placed before it signs (double DS). */
  active: Generated<number>;
  created_at: number;
}

/** A DS record the panel placed at the registry for a signed zone: the domain's list shows it as managed. */
export interface DnsManagedDsTable {
  id: Generated<number>;
  item_id: number;
  /** The registry driver's id of the DS (SecDns.id). */
  ds_id: number;
  key_tag: number;
  algorithm: number;
  digest_type: number;
  digest: string;
}

/** The DNSSEC tables of the dns area; part of the store's Database type. */
export type DnssecTables = { dns_key: DnsKeyTable; dns_managed_ds: DnsManagedDsTable };
