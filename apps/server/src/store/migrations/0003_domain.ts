import { type MigrationDb, withId } from './helpers.ts';

/** Registry state of each domain: flags, DNS mode, sealed auth code, contacts, name servers, glue, DS data. */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  // SQLite takes one column per ALTER TABLE.
  const columns: [string, 'text' | 'integer', string | number | null][] = [
    ['dns_mode', 'text', 'mantenerDNS'],
    ['blocked', 'integer', 0],
    ['transfer_block', 'integer', 0],
    ['whois_privacy', 'integer', 0],
    ['auth_kind', 'text', 'authcode'],
    ['auth_sealed', 'text', null],
    ['updated_at', 'integer', 0],
  ];
  for (const [name, type, fallback] of columns) {
    await db.schema
      .alterTable('domain')
      .addColumn(name, type, (c) => (fallback === null ? c : c.notNull().defaultTo(fallback)))
      .execute();
  }

  await db.schema
    .createTable('domain_contact')
    .addColumn('item_id', 'integer', (c) => c.notNull().references('domain.item_id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('handle', 'text', (c) => c.notNull())
    .addColumn('is_org', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('org_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('ident_number', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('postal_code', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('city_key', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('state_key', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('domain_contact_pk', ['item_id', 'type'])
    .execute();

  await db.schema
    .createTable('domain_name_server')
    .addColumn('item_id', 'integer', (c) => c.notNull().references('domain.item_id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('domain_name_server_pk', ['item_id', 'position'])
    .execute();

  await withId(db.schema.createTable('domain_host'), kind)
    .addColumn('item_id', 'integer', (c) => c.notNull().references('domain.item_id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('ipv4', 'text', (c) => c.notNull())
    .addColumn('ipv6', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addUniqueConstraint('domain_host_name', ['item_id', 'name'])
    .execute();

  await withId(db.schema.createTable('domain_ds'), kind)
    .addColumn('item_id', 'integer', (c) => c.notNull().references('domain.item_id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('key_tag', 'integer', (c) => c.notNull())
    .addColumn('algorithm', 'integer', (c) => c.notNull())
    .addColumn('digest_type', 'integer')
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('flags', 'integer')
    .addColumn('protocol', 'integer')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('domain_ds_item').on('domain_ds').column('item_id').execute();
}
