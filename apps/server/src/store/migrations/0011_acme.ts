import type { MigrationDb } from './helpers.ts';

/** Free certificates (decision 019): the panel's ACME account per directory, each site's ACME state, expiry warnings sent. */
export async function up(db: MigrationDb) {
  await db.schema
    .createTable('acme_account')
    .addColumn('directory_url', 'text', (c) => c.primaryKey())
    // The account's private key (PEM), sealed with the panel's secret key.
    .addColumn('key_sealed', 'text', (c) => c.notNull())
    .addColumn('account_url', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();
  // One row per warning mailed: what (kind, id, its expiry) and how many days before; never twice.
  await db.schema
    .createTable('expiry_warning')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .addColumn('days', 'integer', (c) => c.notNull())
    .addColumn('sent_at', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('expiry_warning_pk', ['kind', 'subject_id', 'expires_at', 'days'])
    .execute();
  const site = () => db.schema.alterTable('site');
  // 'upload' or 'acme': where the stored certificate came from.
  await site()
    .addColumn('cert_source', 'text', (c) => c.notNull().defaultTo('upload'))
    .execute();
  // 1: the site wants a free certificate (issued now, renewed later).
  await site()
    .addColumn('acme_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // 1: the certificate also covers the wildcard of the site's parent name (DNS-01).
  await site()
    .addColumn('acme_wildcard', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The issuance job the SSL dialog follows.
  await site().addColumn('acme_job_id', 'integer').execute();
  // The last failure as {key, params} JSON (the ACME server's reason), null after a success.
  await site().addColumn('acme_error', 'text').execute();
  // Failed issuances in a row (renewal back-off) and when the next renewal is due.
  await site()
    .addColumn('acme_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await site().addColumn('acme_renew_at', 'integer').execute();
}
