import type { Generated, Selectable } from 'kysely';

/** The local DNS driver's signing keys (the private half sealed): PowerDNS keeps its own. */
export interface DnsKeyTable {
  id: Generated<number>;
  item_id: number;
  flags: number;
  algorithm: number;
  /** Base64, as the DNSKEY record carries it. */
  public_key: string;
  private_sealed: string;
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
export type DnsManagedDsRow = Selectable<DnsManagedDsTable>;
