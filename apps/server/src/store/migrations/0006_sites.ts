import { type MigrationDb, withId } from './helpers.ts';

/** The sites area's tables: subdomains with SSL, redirections and application installations. */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  await withId(db.schema.createTable('site'), kind)
    .addColumn('service_id', 'integer', (c) => c.notNull().references('service.item_id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('folder', 'text', (c) => c.notNull())
    .addColumn('ssl_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cert', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cert_chain', 'text', (c) => c.notNull().defaultTo(''))
    // The private key, sealed with the panel's secret key; '' when none.
    .addColumn('cert_key_sealed', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .addUniqueConstraint('site_service_name', ['service_id', 'name'])
    .execute();

  await withId(db.schema.createTable('redirection'), kind)
    .addColumn('service_id', 'integer', (c) => c.notNull().references('service.item_id').onDelete('cascade'))
    // null: the service's bare domain (a redirect-and-parking service has no sites).
    .addColumn('site_id', 'integer', (c) => c.references('site.id').onDelete('cascade'))
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('iframe_title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('iframe_description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('iframe_keywords', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('redirection_service').on('redirection').column('service_id').execute();

  await withId(db.schema.createTable('installation'), kind)
    .addColumn('service_id', 'integer', (c) => c.notNull().references('service.item_id').onDelete('cascade'))
    .addColumn('site_id', 'integer', (c) => c.notNull().references('site.id').onDelete('cascade'))
    .addColumn('app_id', 'integer', (c) => c.notNull())
    .addColumn('directory', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('database_id', 'integer')
    .addColumn('job_id', 'integer')
    // A refusal of the installer that retrying cannot fix: a message key, shown to the user.
    .addColumn('error', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('installation_service').on('installation').column('service_id').execute();
}
