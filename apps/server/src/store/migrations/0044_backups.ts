import { sql } from 'kysely';
import { WHOLE_ITEM } from '../../outbox/lanes.ts';
import { type MigrationDb, type StoreKind, withId } from './helpers.ts';

/**
 * Backups (issue 46, decision 063): each realm's restic repository and its sealed key, every
 * backup of a service (one restic snapshot per part, `parts` as JSON) and every restore. The new
 * permission area `service_backups` starts at each user's level of `service` on the item, and a
 * token's scope that names `service` gets it too, so nobody sees less or more than before.
 */
export async function up(db: MigrationDb, kind: StoreKind) {
  await db.schema
    .createTable('backup_repository')
    .addColumn('realm_id', 'integer', (c) => c.primaryKey())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('password_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('backup'), kind)
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('job_id', 'integer')
    .addColumn('parts', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('added', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .addColumn('forgotten_at', 'bigint')
    .execute();
  await db.schema.createIndex('backup_item').on('backup').columns(['item_id', 'created_at']).execute();
  await db.schema.createIndex('backup_status').on('backup').columns(['status', 'finished_at']).execute();

  await withId(db.schema.createTable('backup_restore'), kind)
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('backup_id', 'integer', (c) => c.notNull())
    .addColumn('part', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('job_id', 'integer')
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('es'))
    .addColumn('before_backup_id', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('backup_restore_item').on('backup_restore').columns(['item_id', 'created_at']).execute();

  await sql`INSERT INTO permission (user_id, item_id, area, level)
    SELECT p.user_id, p.item_id, 'service_backups', p.level FROM permission p
    WHERE p.area = 'service' AND NOT EXISTS (
      SELECT 1 FROM permission q WHERE q.user_id = p.user_id AND q.item_id = p.item_id AND q.area = 'service_backups')`.execute(db);

  const tokens = (await db.selectFrom('api_token').select(['id', 'scope']).execute()) as { id: number; scope: string }[];
  for (const token of tokens) {
    const scope = JSON.parse(token.scope) as Record<string, string>;
    if (scope.service === undefined || scope.service_backups !== undefined) continue;
    await db
      .updateTable('api_token')
      .set({ scope: JSON.stringify({ ...scope, service_backups: scope.service }) })
      .where('id', '=', token.id)
      .execute();
  }

  // The lane `backups` is a new bit: an unfinished job that held the whole item before it (a move,
  // a termination step: every bit of the nine earlier lanes) holds it too.
  const earlierWhole = 0b1_1111_1111;
  await db
    .updateTable('job')
    .set({ lanes: WHOLE_ITEM, after_lanes: WHOLE_ITEM })
    .where('lanes', '=', earlierWhole)
    .where('status', 'in', ['pending', 'running'])
    .execute();
}
