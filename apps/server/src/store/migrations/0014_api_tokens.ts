import { type MigrationDb, withId } from './helpers.ts';

/**
 * API tokens (decision 022). The store keeps only the SHA-256 of each secret; scope, item limit
 * and address ranges are JSON text. Revoking deletes the row, and the guard reads the row on every
 * token call (tokens are not cached), so no auth_version trigger is needed for this table.
 * Times are bigint: an expiry may lie past 2038.
 */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  await withId(db.schema.createTable('api_token'), kind)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('items', 'text')
    .addColumn('cidrs', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('last_ip', 'text')
    .execute();
  await db.schema.createIndex('api_token_user').on('api_token').column('user_id').execute();
}
