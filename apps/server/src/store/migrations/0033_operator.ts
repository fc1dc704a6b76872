import { type MigrationDb, withId } from './helpers.ts';

/**
 * The operator API (decision 037): operator tokens (hashed like API tokens, not tied to a user),
 * the idempotency keys of their writes (one row per token and key, so a retry anywhere finds the
 * first answer), webhook endpoints with their deliveries and each delivery's attempts, and the
 * suspension flags of realms and items. Times are bigint: an expiry may lie past 2038.
 */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  await withId(db.schema.createTable('operator_token'), kind)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('cidrs', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('last_ip', 'text')
    .execute();
  await db.schema
    .createTable('idempotency_key')
    .addColumn('operator_id', 'integer', (c) => c.notNull().references('operator_token.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('answer', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_key_pk', ['operator_id', 'key'])
    .execute();
  await withId(db.schema.createTable('webhook_endpoint'), kind)
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await withId(db.schema.createTable('webhook_delivery'), kind)
    .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoint.id').onDelete('cascade'))
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await withId(db.schema.createTable('webhook_attempt'), kind)
    .addColumn('delivery_id', 'integer', (c) => c.notNull().references('webhook_delivery.id').onDelete('cascade'))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('answer', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('webhook_attempt_delivery').on('webhook_attempt').column('delivery_id').execute();
  // Suspension keeps `disabled` as the one flag every sign-in and session check reads; `suspended`
  // says the operator's billing set it, so sign-in can say why and unsuspend lifts only its own.
  await db.schema
    .alterTable('realm')
    .addColumn('suspended', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('item')
    .addColumn('suspended', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
