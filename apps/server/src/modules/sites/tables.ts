import type { Generated, Selectable } from 'kysely';

/** The sites area's tables (0006_sites); part of the store's Database type. Flags 0/1, times Unix seconds. */
export interface SiteTable {
  id: Generated<number>;
  service_id: number;
  /** Labels under the service's reference, e.g. `blog` for blog.example.com. */
  name: string;
  /** Relative to the service's web root, normalised (no leading slash, no `..`). */
  folder: string;
  ssl_enabled: Generated<number>;
  cert: Generated<string>;
  cert_chain: Generated<string>;
  cert_key_sealed: Generated<string>;
  /** 'upload' or 'acme' (0011_acme). */
  cert_source: Generated<string>;
  acme_enabled: Generated<number>;
  acme_wildcard: Generated<number>;
  acme_job_id: number | null;
  /** The last issuance failure as `{ key, params }` JSON; null after a success. */
  acme_error: string | null;
  acme_failures: Generated<number>;
  acme_renew_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface RedirectionTable {
  id: Generated<number>;
  service_id: number;
  site_id: number | null;
  origin: string;
  kind: string;
  target: string;
  iframe_title: Generated<string>;
  iframe_description: Generated<string>;
  iframe_keywords: Generated<string>;
  created_at: number;
}

export interface InstallationTable {
  id: Generated<number>;
  service_id: number;
  site_id: number;
  app_id: number;
  directory: string;
  url: string;
  database_id: number | null;
  job_id: number | null;
  error: string | null;
  created_at: number;
}

/** The panel's ACME account of one directory (0011_acme). */
export interface AcmeAccountTable {
  directory_url: string;
  key_sealed: string;
  account_url: string | null;
  created_at: number;
}

export type SitesTables = {
  acme_account: AcmeAccountTable;
  site: SiteTable;
  redirection: RedirectionTable;
  installation: InstallationTable;
};

export type SiteRow = Selectable<SiteTable>;
export type RedirectionRow = Selectable<RedirectionTable>;
