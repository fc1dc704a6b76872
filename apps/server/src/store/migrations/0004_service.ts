import { type MigrationDb, withId } from './helpers.ts';

/**
 * The service area: the web constructor folder and last job of a service; mail accounts, aliases,
 * FTP users and databases; and the state the `local` drivers keep in place of a real backend.
 * Every child row carries the outbox job that last changed it (its backend state) and a
 * `deleting` flag: a row leaves the store only once its backend has let go of it.
 */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  await db.schema
    .alterTable('service')
    .addColumn('webconstructor_folder', 'text', (c) => c.notNull().defaultTo('*'))
    .execute();
  await db.schema.alterTable('service').addColumn('job_id', 'integer').execute();

  const child = (name: string) =>
    withId(db.schema.createTable(name), kind).addColumn('item_id', 'integer', (c) => c.notNull().references('item.id').onDelete('cascade'));

  await child('mail_account')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_secret', 'text', (c) => c.notNull())
    .addColumn('quota', 'integer', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleting', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('job_id', 'integer')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addUniqueConstraint('mail_account_name', ['item_id', 'name'])
    .execute();

  await child('mail_alias')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('targets', 'text', (c) => c.notNull())
    .addColumn('deleting', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('job_id', 'integer')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addUniqueConstraint('mail_alias_name', ['item_id', 'name'])
    .execute();

  // FTP logins (name.reference) and database names are global on their servers, so unique here.
  await child('ftp_user')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('login', 'text', (c) => c.notNull().unique())
    .addColumn('folder', 'text', (c) => c.notNull())
    .addColumn('password_secret', 'text', (c) => c.notNull())
    .addColumn('deleting', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('job_id', 'integer')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();

  await child('service_database')
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('password_secret', 'text', (c) => c.notNull())
    .addColumn('external_access', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleting', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('job_id', 'integer')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();

  for (const table of ['mail_account', 'mail_alias', 'ftp_user', 'service_database']) {
    await db.schema.createIndex(`${table}_item`).on(table).column('item_id').execute();
  }

  await db.schema
    .createTable('local_backend')
    .addColumn('driver', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('local_backend_pk', ['driver', 'key'])
    .execute();
}
