import type { MigrationDb } from './helpers.ts';

/**
 * The activity log (decision 023): the sign-in audit becomes the one log of every change. Each line
 * now says who acted (a user, an API token or the operator's CLI), from which browser family, on
 * which item and permission area, and what changed (before → after, secrets redacted). Indexed for
 * the Activity page's filters and for the retention clean-up, which deletes by date.
 */
export async function up(db: MigrationDb) {
  const add = (column: string, type: 'text' | 'integer', defaultText?: string) =>
    db.schema
      .alterTable('audit_event')
      .addColumn(column, type, (c) => (defaultText === undefined ? c : c.notNull().defaultTo(defaultText)))
      .execute();
  await add('actor', 'text', 'user');
  await add('token_id', 'integer');
  await add('token_name', 'text', '');
  await add('agent', 'text', '');
  await add('item_id', 'integer');
  await add('reference', 'text', '');
  await add('area', 'text', '');
  await add('changes', 'text', '[]');
  await db.schema.createIndex('audit_event_realm_at').on('audit_event').columns(['realm_id', 'at']).execute();
  await db.schema.createIndex('audit_event_item_at').on('audit_event').columns(['item_id', 'at']).execute();
  await db.schema.createIndex('audit_event_user_at').on('audit_event').columns(['user_id', 'at']).execute();
  await db.schema.createIndex('audit_event_at').on('audit_event').column('at').execute();
}
