import type { MigrationDb } from './helpers.ts';

/**
 * The sites and the DNS zone show where their last apply stands, read from the job history (the
 * latest job of a kind for an item, done ones included): an index per item and kind keeps that one
 * short range however many jobs the whole panel has run.
 */
export async function up(db: MigrationDb) {
  await db.schema.createIndex('job_item_kind').on('job').columns(['item_id', 'kind', 'id']).execute();
}
