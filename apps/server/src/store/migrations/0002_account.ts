import type { MigrationDb } from './helpers.ts';

/**
 * The account area's columns: the sign-in before the current one, which the dashboard shows as
 * "last login" (like a shell's "Last login: … from …"), so the user can spot a sign-in that was not theirs.
 */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  await db.schema.alterTable('user').addColumn('prev_login_at', 'integer').execute();
  await db.schema.alterTable('user').addColumn('prev_ip', 'text').execute();
  // Byte counts of a service (10 GiB by default) overflow PostgreSQL's 4-byte integer, which made
  // creating any item with a service fail there; SQLite integers are 8 bytes already. Widening is
  // idempotent, so a later migration that does the same is harmless.
  if (kind === 'postgres') {
    for (const column of ['limit_space_web', 'limit_traffic', 'limit_space_databases', 'used_space_web', 'used_traffic', 'used_space_databases']) {
      await db.schema.alterTable('service').alterColumn(column, (c) => c.setDataType('bigint')).execute();
    }
  }
}
