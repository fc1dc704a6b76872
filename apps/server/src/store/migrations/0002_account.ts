import type { MigrationDb } from './helpers.ts';

/**
 * The account area's columns: the sign-in before the current one, which the dashboard shows as
 * "last login" (like a shell's "Last login: … from …"), so the user can spot a sign-in that was not theirs.
 */
export async function up(db: MigrationDb, _kind: 'sqlite' | 'postgres') {
  await db.schema.alterTable('user').addColumn('prev_login_at', 'integer').execute();
  await db.schema.alterTable('user').addColumn('prev_ip', 'text').execute();
}
