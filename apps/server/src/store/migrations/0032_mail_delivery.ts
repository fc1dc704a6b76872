import type { MigrationDb } from './helpers.ts';

/**
 * What a mail account does with the mail it receives: an autoresponder (JSON of subject, text,
 * start and end days and the days between replies to one sender; null for none) and forwarding
 * (comma-joined addresses, empty for none, and whether a copy stays in the mailbox).
 */
export async function up(db: MigrationDb) {
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
