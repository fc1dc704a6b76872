import type { Generated } from 'kysely';

type Flag = number;

/** Columns the service area adds to the core `service` table (migration 0004). */
export interface ServiceExtraColumns {
  webconstructor_folder: Generated<string>;
  job_id: number | null;
  /** Unix seconds of the last measurement of web space, mailboxes and databases; null before the first. */
  usage_measured_at: number | null;
}

interface ChildRow {
  id: Generated<number>;
  item_id: number;
  deleting: Generated<Flag>;
  /** The outbox job that last changed this row: its status is the row's backend state. */
  job_id: number | null;
  created_at: number;
}

export interface MailAccountTable extends ChildRow {
  name: string;
  password_secret: string;
  quota: number;
  used: Generated<number>;
  /** JSON of the autoresponder (`Autoresponder` of the mail driver), null for none. */
  autoresponder: string | null;
  /** Comma-joined forwarding addresses, empty for none. */
  forward_to: Generated<string>;
  forward_keep: Generated<Flag>;
}
/** A mail domain's DKIM key (decision 036). */
export interface MailDkimTable {
  id: Generated<number>;
  item_id: number;
  selector: string;
  algorithm: 'rsa' | 'ed25519';
  /** The PEM private key, sealed like every other secret. */
  private_secret: string;
  /** The `p=` value of its record. */
  public_key: string;
  state: 'published' | 'signing' | 'retired';
  /** When a published key starts signing, or a retired one leaves DNS; null while signing. */
  next_at: number | null;
  created_at: number;
}
export interface MailAliasTable extends ChildRow {
  name: string;
  /** Comma-joined e-mail addresses. */
  targets: string;
}
export interface FtpUserTable extends ChildRow {
  name: string;
  login: string;
  folder: string;
  password_secret: string;
}
export interface ServiceDatabaseTable extends ChildRow {
  name: string;
  username: string;
  password_secret: string;
  external_access: Generated<Flag>;
  /** Bytes, as last measured on the database server. */
  used: Generated<number>;
}
/** What the `local` drivers keep in place of a real backend. */
export interface LocalBackendTable {
  driver: string;
  key: string;
  data: string;
  updated_at: number;
}

/** The service area's tables; part of the store's Database type. */
export type ServiceTables = {
  // Intersected with the core table of the same name: the columns migration 0004 adds.
  service: ServiceExtraColumns;
  mail_account: MailAccountTable;
  mail_alias: MailAliasTable;
  mail_dkim: MailDkimTable;
  ftp_user: FtpUserTable;
  service_database: ServiceDatabaseTable;
  local_backend: LocalBackendTable;
};
