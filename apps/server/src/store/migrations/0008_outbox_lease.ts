import { sql } from 'kysely';
import type { MigrationDb } from './helpers.ts';

/**
 * The outbox shared by several processes: a claimed job carries a lease (`lease_until`, Unix
 * seconds) and the claim's token (`claimed_by`), so a job whose process died is taken over once the
 * lease ends and only the holder of the current claim records its outcome. On PostgreSQL a new job,
 * or one put back to pending, notifies `atalaya_job`, which wakes the workers of every process.
 */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  await db.schema.alterTable('job').addColumn('lease_until', 'bigint').execute();
  await db.schema.alterTable('job').addColumn('claimed_by', 'text').execute();
  // The unfinished jobs, per item in order: what a claim looks at, however long the history of done jobs.
  await db.schema
    .createIndex('job_open')
    .on('job')
    .columns(['item_id', 'id'])
    .where(sql.ref('status'), 'in', ['pending', 'running'])
    .execute();
  if (kind === 'postgres') {
    await sql
      .raw(
        `CREATE FUNCTION notify_job() RETURNS trigger AS $$ BEGIN PERFORM pg_notify('atalaya_job', ''); RETURN NULL; END $$ LANGUAGE plpgsql`,
      )
      .execute(db);
    await sql.raw('CREATE TRIGGER job_inserted AFTER INSERT ON job FOR EACH STATEMENT EXECUTE FUNCTION notify_job()').execute(db);
    await sql
      .raw(
        "CREATE TRIGGER job_requeued AFTER UPDATE OF status ON job FOR EACH ROW WHEN (NEW.status = 'pending' AND OLD.status <> 'pending') EXECUTE FUNCTION notify_job()",
      )
      .execute(db);
  }
}
