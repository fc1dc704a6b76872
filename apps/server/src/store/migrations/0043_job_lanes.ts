import { sql } from 'kysely';
import { laneColumns, WHOLE_ITEM } from '../../outbox/lanes.ts';
import type { MigrationDb } from './helpers.ts';

/**
 * Lanes of an item's jobs (decision 055): the lanes a job holds and those it waits for, as bits of
 * outbox/lanes.ts. A row written without them holds the whole item, as every job did before; the
 * jobs already queued get their kind's lanes. The index of the unfinished jobs now carries what a
 * claim reads of them, so it reads no table row for the jobs it only counts.
 */
export async function up(db: MigrationDb) {
  await db.schema
    .alterTable('job')
    .addColumn('lanes', 'integer', (c) => c.notNull().defaultTo(WHOLE_ITEM))
    .execute();
  await db.schema
    .alterTable('job')
    .addColumn('after_lanes', 'integer', (c) => c.notNull().defaultTo(WHOLE_ITEM))
    .execute();
  const kinds = (await db.selectFrom('job').select('kind').distinct().execute()) as { kind: string }[];
  for (const { kind } of kinds) await db.updateTable('job').set(laneColumns(kind)).where('kind', '=', kind).execute();
  await db.schema.dropIndex('job_open').execute();
  await db.schema
    .createIndex('job_open_lanes')
    .on('job')
    .columns(['item_id', 'id', 'lanes', 'status', 'lease_until'])
    .where(sql.ref('status'), 'in', ['pending', 'running'])
    .execute();
}
