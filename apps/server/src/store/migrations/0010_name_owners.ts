import { sql } from 'kysely';
import type { MigrationDb } from './helpers.ts';

/**
 * One owner per name in the whole installation (decision 015): the real backends key domains, zones,
 * mailboxes, FTP logins and databases by name, so two realms holding the same one would overwrite
 * each other. An item's reference is unique across realms, and so are the domain and zone names
 * made from it. A mail address is `name@reference` (unique per item already), an FTP login
 * `name.reference` (unique since 0004), a database name carries its service's id (unique since
 * 0004): with the reference unique, none of them can be another owner's.
 *
 * A store where two realms already share a reference cannot take the constraint: the migration
 * stops and names them, rather than choose an owner for the operator.
 */
export async function up(db: MigrationDb) {
  const shared = await sql<{ reference: string; realms: string }>`
    SELECT item.reference AS reference, realm.name AS realms
    FROM item JOIN realm ON realm.id = item.realm_id
    WHERE item.reference IN (SELECT reference FROM item GROUP BY reference HAVING COUNT(*) > 1)
    ORDER BY item.reference, realm.name`.execute(db);
  if (shared.rows.length > 0) {
    const byName = new Map<string, string[]>();
    for (const row of shared.rows) byName.set(row.reference, [...(byName.get(row.reference) ?? []), row.realms]);
    const list = [...byName].map(([name, realms]) => `${name} (realms ${realms.join(', ')})`).join('; ');
    throw new Error(
      `Migration 0010_name_owners: these names belong to more than one realm: ${list}. A name may have one owner only, ` +
        'as the mail, DNS, FTP and database servers key it by name: remove the duplicate items, then start again.',
    );
  }
  await db.schema.createIndex('item_reference_unique').on('item').column('reference').unique().execute();
  await db.schema.createIndex('domain_name_unique').on('domain').column('name').unique().execute();
  await db.schema.createIndex('dns_zone_name_unique').on('dns_zone').column('name').unique().execute();
}
