import { sql } from 'kysely';
import type { MigrationDb } from './helpers.ts';

/**
 * A counter that every change to who may do what bumps, in any process (the admin CLI included):
 * servers keep sessions and permission maps in memory while it stays the same. Session *updates*
 * are left out on purpose: they are the once-a-minute touches, and expiry is computed from time.
 */
const WATCHED: [table: string, events: string[]][] = [
  ['session', ['INSERT', 'DELETE']],
  ['user', ['INSERT', 'UPDATE', 'DELETE']],
  ['realm', ['INSERT', 'UPDATE', 'DELETE']],
  ['item', ['INSERT', 'UPDATE', 'DELETE']],
  ['permission', ['INSERT', 'UPDATE', 'DELETE']],
];

export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  await db.schema
    .createTable('auth_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('auth_version').values({ id: 1, version: 0 }).execute();
  const bump = 'UPDATE auth_version SET version = version + 1 WHERE id = 1';
  if (kind === 'postgres') {
    await sql
      .raw(`CREATE FUNCTION bump_auth_version() RETURNS trigger AS $$ BEGIN ${bump}; RETURN NULL; END $$ LANGUAGE plpgsql`)
      .execute(db);
  }
  for (const [table, events] of WATCHED) {
    if (kind === 'postgres') {
      await sql
        .raw(
          `CREATE TRIGGER auth_version_${table} AFTER ${events.join(' OR ')} ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION bump_auth_version()`,
        )
        .execute(db);
    } else {
      for (const event of events) {
        await sql
          .raw(`CREATE TRIGGER auth_version_${table}_${event.toLowerCase()} AFTER ${event} ON "${table}" BEGIN ${bump}; END`)
          .execute(db);
      }
    }
  }
}
