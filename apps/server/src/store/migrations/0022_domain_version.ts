import { sql } from 'kysely';
import { bumpAuthVersionOnChange, type MigrationDb } from './helpers.ts';

/**
 * The domain read is kept in memory too, while `auth_version` stays the same (decision 024): so
 * every change to a domain row bumps it, not only a renewal (0018), and so does every change to its
 * contacts and name servers. Nothing writes these tables on a schedule: customers' edits through
 * the registry driver do, and the operator's CLI.
 */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  if (kind === 'postgres') await sql.raw('DROP TRIGGER auth_version_domain ON domain').execute(db);
  else for (const event of ['insert', 'update', 'delete']) await sql.raw(`DROP TRIGGER auth_version_domain_${event}`).execute(db);
  for (const table of ['domain', 'domain_contact', 'domain_name_server']) await bumpAuthVersionOnChange(db, kind, table);
}
