import { sql } from 'kysely';
import type { MigrationDb } from './helpers.ts';

/**
 * The shell's own reads (`user/info`, `permission/list`) are kept in memory while `auth_version`
 * stays the same (decision 024). They also show which items are domains, services or mail services
 * and when each expires, so adding or removing one, a renewal and a service changing kind bump the
 * counter too. Other updates of those rows (usage figures, toggles) do not: they change nothing
 * the shell shows, and the usage schedule writes them every hour.
 */
const WATCHED: [table: string, columns: string[]][] = [
  ['domain', ['expire_at']],
  ['service', ['expire_at', 'kind']],
  ['mail_service', ['expire_at']],
];

export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  const bump = 'UPDATE auth_version SET version = version + 1 WHERE id = 1';
  for (const [table, columns] of WATCHED) {
    const update = `UPDATE OF ${columns.join(', ')}`;
    if (kind === 'postgres') {
      // bump_auth_version() is 0007's.
      await sql
        .raw(
          `CREATE TRIGGER auth_version_${table} AFTER INSERT OR ${update} OR DELETE ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION bump_auth_version()`,
        )
        .execute(db);
    } else {
      for (const [name, event] of [
        ['insert', 'INSERT'],
        ['update', update],
        ['delete', 'DELETE'],
      ]) {
        await sql.raw(`CREATE TRIGGER auth_version_${table}_${name} AFTER ${event} ON "${table}" BEGIN ${bump}; END`).execute(db);
      }
    }
  }
}
