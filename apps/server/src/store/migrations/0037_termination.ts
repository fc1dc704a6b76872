import type { MigrationDb } from './helpers.ts';

/**
 * Termination over the operator API: when a realm's or an item's backends are cleaned and its rows
 * deleted (Unix seconds, bigint as every time that may lie past 2038); null: not being terminated.
 * An item's `terminate_job` is the job that deletes it once its backends are clean: set when the
 * cleaning is queued, so the schedule queues it once.
 */
export async function up(db: MigrationDb) {
  await db.schema.alterTable('realm').addColumn('terminate_at', 'bigint').execute();
  await db.schema.alterTable('item').addColumn('terminate_at', 'bigint').execute();
  await db.schema.alterTable('item').addColumn('terminate_job', 'integer').execute();
}
