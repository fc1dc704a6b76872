import { sql } from 'kysely';
import * as core from './0001_core.ts';
import * as account from './0002_account.ts';
import * as domain from './0003_domain.ts';
import * as service from './0004_service.ts';
import * as dns from './0005_dns.ts';
import * as sites from './0006_sites.ts';
import * as authVersion from './0007_auth_version.ts';
import * as outboxLease from './0008_outbox_lease.ts';
import * as noticeNotify from './0009_notice_notify.ts';
import * as nameOwners from './0010_name_owners.ts';
import * as acme from './0011_acme.ts';
import * as usage from './0012_usage.ts';
import * as factors from './0013_factors.ts';
import * as apiTokens from './0014_api_tokens.ts';
import * as activity from './0015_activity.ts';
import * as paging from './0016_paging.ts';
import * as shellVersion from './0018_shell_version.ts';
import * as jobHistory from './0019_job_history.ts';
import * as listFilterIndex from './0020_list_filter_index.ts';
import * as dnsRecordIndexes from './0021_dns_record_indexes.ts';
import * as domainVersion from './0022_domain_version.ts';
import * as recoveryCodeIssued from './0023_recovery_code_issued.ts';
import * as dnssec from './0030_dnssec.ts';
import * as dnsChange from './0031_dns_change.ts';
import * as mailDelivery from './0032_mail_delivery.ts';
import * as operator from './0033_operator.ts';
import * as registryChanges from './0034_registry_changes.ts';
import * as domainLife from './0035_domain_life.ts';
import * as nodes from './0036_nodes.ts';
import * as termination from './0037_termination.ts';
import * as transfers from './0038_transfers.ts';
import * as nodeAddress from './0039_node_address.ts';
import * as domainBulkOwner from './0040_domain_bulk_owner.ts';
import * as jobLanes from './0043_job_lanes.ts';
import * as backups from './0044_backups.ts';
import type { MigratableStore, MigrationDb, StoreKind } from './helpers.ts';

type Migration = { up: (db: MigrationDb, kind: StoreKind) => Promise<void> };

/** In order; never edit one that has shipped, add the next. */
const MIGRATIONS: [string, Migration][] = [
  ['0001_core', core],
  ['0002_account', account],
  ['0003_domain', domain],
  ['0004_service', service],
  ['0005_dns', dns],
  ['0006_sites', sites],
  ['0007_auth_version', authVersion],
  ['0008_outbox_lease', outboxLease],
  ['0009_notice_notify', noticeNotify],
  ['0010_name_owners', nameOwners],
  ['0011_acme', acme],
  ['0012_usage', usage],
  ['0013_factors', factors],
  ['0014_api_tokens', apiTokens],
  ['0015_activity', activity],
  ['0016_paging', paging],
  ['0018_shell_version', shellVersion],
  ['0019_job_history', jobHistory],
  ['0020_list_filter_index', listFilterIndex],
  ['0021_dns_record_indexes', dnsRecordIndexes],
  ['0022_domain_version', domainVersion],
  ['0023_recovery_code_issued', recoveryCodeIssued],
  ['0030_dnssec', dnssec],
  ['0031_dns_change', dnsChange],
  ['0032_mail_delivery', mailDelivery],
  ['0033_operator', operator],
  ['0034_registry_changes', registryChanges],
  ['0036_nodes', nodes],
  ['0035_domain_life', domainLife],
  ['0037_termination', termination],
  ['0038_transfers', transfers],
  ['0039_node_address', nodeAddress],
  ['0040_domain_bulk_owner', domainBulkOwner],
  ['0043_job_lanes', jobLanes],
  ['0044_backups', backups],
];

/** The advisory lock that lets only one process migrate a PostgreSQL store at a time. */
const MIGRATION_LOCK = 7_414_001;

/**
 * Runs every pending migration in one transaction, on either store. Two processes starting at once
 * take turns: PostgreSQL waits on an advisory lock, SQLite on its write lock (transactions begin
 * immediate); the second finds the work done.
 */
export async function migrateToLatest(store: MigratableStore) {
  await store.transaction().execute(async (trx) => {
    if (store.kind === 'postgres') await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS schema_migration (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)`.execute(trx);
    const done = new Set((await sql<{ name: string }>`SELECT name FROM schema_migration`.execute(trx)).rows.map((r) => r.name));
    for (const [name, migration] of MIGRATIONS) {
      if (done.has(name)) continue;
      await migration.up(trx, store.kind);
      await sql`INSERT INTO schema_migration (name, applied_at) VALUES (${name}, ${Math.floor(Date.now() / 1000)})`.execute(trx);
    }
  });
}

/** The migrations the code knows that the store has not applied (the readiness check wants none). */
export async function pendingMigrations(store: MigratableStore) {
  const done = new Set((await sql<{ name: string }>`SELECT name FROM schema_migration`.execute(store)).rows.map((r) => r.name));
  return MIGRATIONS.map(([name]) => name).filter((name) => !done.has(name));
}
