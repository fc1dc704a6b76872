import { sql } from 'kysely';
import type { MigrationDb } from './helpers.ts';

/**
 * Menu pushes across processes: on PostgreSQL a new notice notifies `atalaya_notice` with its user
 * id when the writer commits (a server, the admin CLI, a hand-made SQL fix alike), so the process
 * holding that user's socket pushes at once instead of at its next poll.
 */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  if (kind !== 'postgres') return;
  await sql
    .raw(
      `CREATE FUNCTION notify_notice() RETURNS trigger AS $$ BEGIN PERFORM pg_notify('atalaya_notice', NEW.user_id::text); RETURN NULL; END $$ LANGUAGE plpgsql`,
    )
    .execute(db);
  await sql.raw('CREATE TRIGGER notice_inserted AFTER INSERT ON notice FOR EACH ROW EXECUTE FUNCTION notify_notice()').execute(db);
}
