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
  /** The secret sealed with the runtime's secrets (AES-256-GCM); null until first asked for. */
  auth_sealed: string | null;
  updated_at: Generated<number>;
  /** `auto`: renewed by the schedule before expiry; `expire`: left to lapse (0035). */
  renewal_mode: Generated<string>;
  /** The expiry the renewal schedule claimed to renew from (null: none). */
  renew_claimed: number | null;
  /** 1 while the item waits for the domain's transfer in from another registrar (migration 0038). */
  transfer_in: Generated<number>;
  /** The local registry's sponsoring client: '' for the panel's own account (migration 0038). */
  sponsor: Generated<string>;
  /** After a change of owner: until when the panel keeps the transfer block on (null: no such lock). */
  transfer_lock_until: number | null;
}

/** The local registry's last transfer of each domain (RFC 5731 trnData): times Unix seconds. */
export interface DomainTransferTable {
  item_id: number;
  /** pending, clientApproved, clientRejected, clientCancelled, serverApproved. */
  status: string;
  requested_by: string;
  requested_at: number;
  /** The sponsor who must act, and when the registry approves it if nobody does (then when it ended). */
  action_by: string;
  action_at: number;
  years: number;
}

/** A bulk action over domains: who asked, which action and its fields (JSON). */
export interface DomainBulkTable {
  id: Generated<number>;
  user_id: number;
  /** `callerKey` of who started it: the user alone, or the user through one API token. */
  caller: string;
  action: string;
  fields: string;
  created_at: number;
}

/** One domain of a bulk action: queued, done, failed or skipped, with the change it queued and why it ended so. */
export interface DomainBulkItemTable {
  id: Generated<number>;
  bulk_id: number;
  item_id: number;
  /** Empty for an id the caller may not see: nothing of another realm's domain is kept or shown. */
  name: Generated<string>;
  state: string;
  /** `{key, params}` as JSON: why it was skipped or refused before reaching the registry. */
  message: Generated<string>;
  change_id: number | null;
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

/** A change sent to the registry through the outbox (decision 038); `payload` is the action's JSON. */
export interface RegistryChangeTable {
  id: Generated<number>;
  item_id: number;
  action: string;
  payload: string;
  /** queued, awaiting (the registry answered 1001 and completes it later), done or failed. */
  state: string;
  /** The registry's words for a refusal; empty otherwise. */
  reason: Generated<string>;
  /** The panel's message for a refusal, `{key, params}` as JSON; empty otherwise. */
  message: Generated<string>;
  /** The EPP result code of the answer that settled it, when a remote registry answered. */
  result: number | null;
  /** The RegistryTransaction list (clTRID, svTRID) of the commands that applied it, as JSON. */
  transactions: Generated<string>;
  user_id: number | null;
  job_id: number | null;
  created_at: number;
  updated_at: number;
}

/** A poll-queue message the panel could not read, kept for the operator. */
export interface RegistryMessageTable {
  id: Generated<number>;
  message_id: string;
  queued_at: Generated<string>;
  text: Generated<string>;
  xml: string;
  created_at: number;
}

export type DomainTables = {
  registry_change: RegistryChangeTable;
  registry_message: RegistryMessageTable;
  /** Intersected with the core table's columns by the Database type. */
  domain: DomainRegistryColumns;
  domain_contact: DomainContactTable;
  domain_name_server: DomainNameServerTable;
  domain_host: DomainHostTable;
  domain_ds: DomainDsTable;
  billing_event: BillingEventTable;
  domain_transfer: DomainTransferTable;
  domain_bulk: DomainBulkTable;
  domain_bulk_item: DomainBulkItemTable;
};
