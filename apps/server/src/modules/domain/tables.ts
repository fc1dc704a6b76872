import type { Generated } from 'kysely';

/**
 * The domain area's tables; part of the store's Database type. The local registry driver keeps
 * the registry's state here too (drivers/registry/local.ts). Flags 0/1, times Unix seconds.
 */

/** Columns added to the core `domain` table by 0003_domain. */
export interface DomainRegistryColumns {
  dns_mode: Generated<string>;
  blocked: Generated<number>;
  transfer_block: Generated<number>;
  whois_privacy: Generated<number>;
  /** 'authcode' or 'transferkey': which secret the registry of this TLD uses. */
  auth_kind: Generated<string>;
  /** The secret sealed with app.secrets (AES-256-GCM); null until first asked for. */
  auth_sealed: string | null;
  updated_at: Generated<number>;
  /** `auto`: renewed by the schedule before expiry; `expire`: left to lapse (0035). */
  renewal_mode: Generated<string>;
  /** The expiry the renewal schedule claimed to renew from (null: none). */
  renew_claimed: number | null;
}

/** The billing ledger: each billable action once (unique on item, action and the date it starts from). */
export interface BillingEventTable {
  id: Generated<number>;
  item_id: number;
  domain: string;
  /** `renew`, `restore` or `transfer_in`. */
  action: string;
  years: number;
  /** YYYY-MM-DD: the expiry a renewal started from, the expiry a restore brought back. */
  from_date: string;
  expire_at: number;
  /** Who: `user:<id>`, `token:<id>` or `schedule`. */
  actor: string;
  created_at: number;
}

export interface DomainContactTable {
  item_id: number;
  type: string;
  /** The EPP contact id (RFC 5733 contact:id). */
  handle: string;
  is_org: number;
  org_name: string;
  first_name: string;
  last_name: string;
  ident_number: string;
  email: string;
  phone: string;
  address: string;
  postal_code: string;
  city: string;
  city_key: string;
  state: string;
  state_key: string;
  country: string;
  updated_at: number;
}

export interface DomainNameServerTable {
  item_id: number;
  position: number;
  host: string;
}

/** Glue records: RFC 5732 host objects subordinate to the domain. */
export interface DomainHostTable {
  id: Generated<number>;
  item_id: number;
  name: string;
  ipv4: string;
  ipv6: string;
  created_at: number;
}

/** DS or DNSKEY data of RFC 5910, behind a panel id. */
export interface DomainDsTable {
  id: Generated<number>;
  item_id: number;
  type: string;
  key_tag: number;
  algorithm: number;
  digest_type: number | null;
  digest: string;
  flags: number | null;
  protocol: number | null;
  created_at: number;
}

export type DomainTables = {
  /** Intersected with the core table's columns by the Database type. */
  domain: DomainRegistryColumns;
  domain_contact: DomainContactTable;
  domain_name_server: DomainNameServerTable;
  domain_host: DomainHostTable;
  domain_ds: DomainDsTable;
  billing_event: BillingEventTable;
};
