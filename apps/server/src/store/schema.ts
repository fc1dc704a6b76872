import type { Generated, Selectable } from 'kysely';
import type { AccountTables } from '../modules/account/tables.ts';
import type { BackupTables } from '../modules/backups/tables.ts';
import type { DnssecTables, DnsTables } from '../modules/dns/tables.ts';
import type { DomainTables } from '../modules/domain/tables.ts';
import type { ExpiryTables } from '../modules/expiry/tables.ts';
import type { ListTables } from '../modules/lists/tables.ts';
import type { OperatorTables } from '../modules/operator/tables.ts';
import type { ServiceTables } from '../modules/service/tables.ts';
import type { SitesTables } from '../modules/sites/tables.ts';
import type { TokenTables } from '../modules/token/tables.ts';
import type { NodeTables } from '../nodes/tables.ts';

/** Flags are 0/1 and times Unix seconds on both stores, so one query code base serves both. */
type Flag = number;

export interface RealmTable {
  id: Generated<number>;
  name: string;
  disabled: Generated<Flag>;
  /** Set with `disabled` by the operator API's suspension (migration 0033_operator). */
  suspended: Generated<Flag>;
  /** When the operator's termination deletes it, once its items are gone (migration 0037); null: not terminated. */
  terminate_at: Generated<number | null>;
  created_at: number;
}
export interface UserTable {
  id: Generated<number>;
  realm_id: number;
  username: string;
  password_hash: string;
  name: Generated<string>;
  email: Generated<string>;
  language: Generated<string>;
  theme: Generated<string>;
  color: Generated<string>;
  last_login_at: number | null;
  last_ip: string | null;
  disabled: Generated<Flag>;
  created_at: number;
}
export interface SessionTable {
  id: string;
  user_id: number;
  created_at: number;
  last_seen_at: number;
  ip: Generated<string>;
}
export interface ItemTable {
  id: Generated<number>;
  realm_id: number;
  reference: string;
  /** The reference lower-cased and without accents (searchKey), for the paged lists' filter and sort. */
  search: Generated<string>;
  /** Suspended by the operator API (migration 0033_operator): shown so, its mail still arrives. */
  suspended: Generated<Flag>;
  /** When the operator's termination cleans its backends and deletes it (migration 0037); null: not terminated. */
  terminate_at: Generated<number | null>;
  /** The job that deletes it once its backends are clean; set when the cleaning was queued. */
  terminate_job: Generated<number | null>;
  created_at: number;
  /** The node the item's hosting is placed on; null on the panel's own machine (decision 040). */
  node_id: Generated<number | null>;
}
export interface PermissionTable {
  user_id: number;
  item_id: number;
  area: string;
  level: string;
}
export interface DomainTable {
  item_id: number;
  name: string;
  status: Generated<string>;
  expire_at: number;
  created_at: number;
}
export interface ServiceTable {
  item_id: number;
  kind: 'normal' | 'parking';
  expire_at: number;
  php_version: Generated<string>;
  php_min_version: Generated<string>;
  parking_active: Generated<Flag>;
  limit_space_web: Generated<number>;
  limit_traffic: Generated<number>;
  limit_databases: Generated<number>;
  limit_space_databases: Generated<number>;
  used_space_web: Generated<number>;
  used_traffic: Generated<number>;
  used_space_databases: Generated<number>;
  created_at: number;
}
export interface MailServiceTable {
  item_id: number;
  expire_at: number;
  limit_accounts: Generated<number>;
  created_at: number;
}
export interface AuditEventTable {
  id: Generated<number>;
  at: number;
  realm_id: number | null;
  user_id: number | null;
  action: string;
  outcome: string;
  ip: Generated<string>;
  detail: Generated<string>;
  /** Who acted (migration 0015_activity): `user`, `token` (with its id and name) or `cli`. */
  actor: Generated<string>;
  token_id: number | null;
  token_name: Generated<string>;
  /** The browser family the call came from (Firefox, Chrome…), for the new-browser notice. */
  agent: Generated<string>;
  item_id: number | null;
  reference: Generated<string>;
  /** The permission area of the change, or `account` for the user's own calls. */
  area: Generated<string>;
  /** JSON list of { field, before, after }, secrets already redacted. */
  changes: Generated<string>;
}
export interface JobTable {
  id: Generated<number>;
  kind: string;
  item_id: number | null;
  payload: string;
  status: 'pending' | 'running' | 'done' | 'failed';
  attempts: Generated<number>;
  next_at: number;
  last_error: string | null;
  progress: Generated<number>;
  created_at: number;
  updated_at: number;
  /** While running: until when the claim holds (Unix seconds); past it, any process may take the job over. */
  lease_until: number | null;
  /** The token of the claim that may record the outcome. */
  claimed_by: string | null;
  /** The node whose agent applies the job (its item's placement when queued); null: the panel's own worker. */
  node_id: Generated<number | null>;
  /** The lanes the job holds, one bit each (outbox/lanes.ts); the store's default is the whole item. */
  lanes: Generated<number>;
  /** The lanes whose earlier unfinished jobs of its item it waits for (its own included). */
  after_lanes: Generated<number>;
}
export interface NoticeTable {
  id: Generated<number>;
  user_id: number;
  type: string;
  at: number;
}
export interface CounterTable {
  key: string;
  hits: number;
  reset_at: number;
}
export interface UsedChallengeTable {
  signature: string;
  expires_at: number;
}
export interface AuthVersionTable {
  id: number;
  version: number;
}

/** Every table of the store: the core ones here, each area's in its modules/<area>/tables.ts. */
export interface CoreTables {
  realm: RealmTable;
  user: UserTable;
  session: SessionTable;
  item: ItemTable;
  permission: PermissionTable;
  domain: DomainTable;
  service: ServiceTable;
  mail_service: MailServiceTable;
  audit_event: AuditEventTable;
  job: JobTable;
  notice: NoticeTable;
  counter: CounterTable;
  used_challenge: UsedChallengeTable;
  auth_version: AuthVersionTable;
}
export type Database = CoreTables &
  AccountTables &
  DomainTables &
  ServiceTables &
  DnsTables &
  DnssecTables &
  SitesTables &
  ExpiryTables &
  TokenTables &
  OperatorTables &
  NodeTables &
  ListTables &
  BackupTables;
export type User = Selectable<UserTable>;
export type Job = Selectable<JobTable>;
