import type { MigrationDb } from './helpers.ts';

/**
 * When each recovery code was issued: a re-authentication counts only what the user held before
 * the session began, and codes handed out within a session (with a factor enrolled in it) must not
 * count there. Codes issued before this column existed get 0: they predate every session.
 */
export async function up(db: MigrationDb) {
  await db.schema
    .alterTable('recovery_code')
    .addColumn('created_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}
