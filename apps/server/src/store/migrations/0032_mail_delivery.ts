import { type MigrationDb, withId } from './helpers.ts';

/**
 * What a mail account does with the mail it receives: an autoresponder (JSON of subject, text,
 * start and end days and the days between replies to one sender; null for none) and forwarding
 * (comma-joined addresses, empty for none, and whether a copy stays in the mailbox). And each mail
 * domain's DKIM keys: the private key sealed, its state (`published`: in DNS, not yet signing;
 * `signing`; `retired`: still in DNS for mail already sent) and when it moves on.
 */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  await withId(db.schema.createTable('mail_dkim'), kind)
    .addColumn('item_id', 'integer', (c) => c.notNull().references('item.id').onDelete('cascade'))
    .addColumn('selector', 'text', (c) => c.notNull())
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('private_secret', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('next_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('mail_dkim_selector', ['item_id', 'selector'])
    .execute();
  await db.schema.alterTable('mail_account').addColumn('autoresponder', 'text').execute();
  await db.schema
    .alterTable('mail_account')
    .addColumn('forward_to', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('mail_account')
    .addColumn('forward_keep', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}
