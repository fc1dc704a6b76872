import { type MigrationDb, withId } from './helpers.ts';

/** Realms, users, sessions, items, permissions, audit, outbox jobs and the cross-process notices. */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  await withId(db.schema.createTable('realm'), kind)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('user'), kind)
    .addColumn('realm_id', 'integer', (c) => c.notNull().references('realm.id').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('es'))
    .addColumn('theme', 'text', (c) => c.notNull().defaultTo('system'))
    .addColumn('color', 'text', (c) => c.notNull().defaultTo('indigo'))
    .addColumn('last_login_at', 'integer')
    .addColumn('last_ip', 'text')
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addUniqueConstraint('user_realm_username', ['realm_id', 'username'])
    .execute();

  await db.schema
    .createTable('session')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('last_seen_at', 'integer', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('session_user').on('session').column('user_id').execute();

  await withId(db.schema.createTable('item'), kind)
    .addColumn('realm_id', 'integer', (c) => c.notNull().references('realm.id').onDelete('cascade'))
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('item_realm').on('item').column('realm_id').execute();

  await db.schema
    .createTable('permission')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('item_id', 'integer', (c) => c.notNull().references('item.id').onDelete('cascade'))
    .addColumn('area', 'text', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('permission_pk', ['user_id', 'item_id', 'area'])
    .execute();

  // The three kinds of service an item may carry; their own issues add columns and child tables.
  await db.schema
    .createTable('domain')
    .addColumn('item_id', 'integer', (c) => c.primaryKey().references('item.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('expire_at', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('service')
    .addColumn('item_id', 'integer', (c) => c.primaryKey().references('item.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('expire_at', 'integer', (c) => c.notNull())
    .addColumn('php_version', 'text', (c) => c.notNull().defaultTo('default'))
    .addColumn('php_min_version', 'text', (c) => c.notNull().defaultTo('5.6'))
    .addColumn('parking_active', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('limit_space_web', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('limit_traffic', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('limit_databases', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('limit_space_databases', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('used_space_web', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('used_traffic', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('used_space_databases', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('mail_service')
    .addColumn('item_id', 'integer', (c) => c.primaryKey().references('item.id').onDelete('cascade'))
    .addColumn('expire_at', 'integer', (c) => c.notNull())
    .addColumn('limit_accounts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('audit_event'), kind)
    .addColumn('at', 'integer', (c) => c.notNull())
    .addColumn('realm_id', 'integer')
    .addColumn('user_id', 'integer')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();

  // The outbox (docs/design.md#outbox): written with the panel's change, applied and retried by the worker.
  await withId(db.schema.createTable('job'), kind)
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('item_id', 'integer')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_at', 'integer', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('job_due').on('job').columns(['status', 'next_at']).execute();

  // Cross-process fan-out: a permission change made by the CLI is seen by every server process.
  await withId(db.schema.createTable('notice'), kind)
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('at', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('counter')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('used_challenge')
    .addColumn('signature', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .execute();
}
