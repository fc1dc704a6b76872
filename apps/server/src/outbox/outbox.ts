import type { Kysely, Transaction } from 'kysely';
import { now } from '../store/db.ts';
import type { Database, Job } from '../store/schema.ts';

/**
 * The outbox (DESIGN.md §5). A change a backend must apply is written as a job in the same
 * transaction as the panel's own record, then applied by the worker and retried with back-off
 * until it succeeds. A job that keeps failing ends as `failed`, visible with its last error.
 */
export type JobHandler = (
  payload: unknown,
  job: Job,
  progress: (percent: number) => Promise<void>,
  /** The store the job was claimed from: a handler finds its app's drivers by it. */
  db: Kysely<Database>,
) => Promise<void>;

const handlers = new Map<string, JobHandler>();

/** Each driver registers the job kinds it applies, e.g. `dns.apply-zone`, `db.create`. */
export function registerJobHandler(kind: string, handler: JobHandler) {
  handlers.set(kind, handler);
}

export async function enqueue(trx: Transaction<Database> | Kysely<Database>, kind: string, payload: unknown, itemId: number | null = null) {
  const t = now();
  const job = await trx
    .insertInto('job')
    .values({ kind, item_id: itemId, payload: JSON.stringify(payload), status: 'pending', next_at: t, created_at: t, updated_at: t })
    .returning('id')
    .executeTakeFirstOrThrow();
  return job.id;
}

export const MAX_ATTEMPTS = 8;
/** 1 s, 2 s, 4 s … capped at 5 minutes. */
export const backoffSeconds = (attempts: number) => Math.min(300, 2 ** Math.max(0, attempts - 1));

/** Claims one due job (safe across processes: the status update wins once) and applies it. */
export async function runOneJob(db: Kysely<Database>): Promise<Job | null> {
  const t = now();
  const due = await db
    .selectFrom('job')
    .selectAll()
    .where('status', '=', 'pending')
    .where('next_at', '<=', t)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!due) return null;
  const claimed = await db
    .updateTable('job')
    .set({ status: 'running', updated_at: t })
    .where('id', '=', due.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return due; // another worker took it
  const handler = handlers.get(due.kind);
  try {
    if (!handler) throw new Error(`no handler for job kind ${due.kind}`);
    await handler(JSON.parse(due.payload), due, async (percent) => {
      await db.updateTable('job').set({ progress: Math.round(percent), updated_at: now() }).where('id', '=', due.id).execute();
    }, db);
    await db.updateTable('job').set({ status: 'done', progress: 100, last_error: null, updated_at: now() }).where('id', '=', due.id).execute();
  } catch (error) {
    const attempts = due.attempts + 1;
    await db
      .updateTable('job')
      .set({
        status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
        attempts,
        next_at: now() + backoffSeconds(attempts),
        last_error: String((error as Error).message ?? error).slice(0, 1000),
        updated_at: now(),
      })
      .where('id', '=', due.id)
      .execute();
  }
  return due;
}

/** Runs due jobs until none is left; tests call it to apply changes deterministically. */
export async function drainJobs(db: Kysely<Database>, limit = 1000) {
  for (let i = 0; i < limit; i++) if (!(await runOneJob(db))) return;
}

/** The background worker of a server process: polls every `intervalMs`, stops on close. */
export function startWorker(db: Kysely<Database>, intervalMs = 250) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    if (stopped) return;
    try {
      while (!stopped && (await runOneJob(db)));
    } finally {
      if (!stopped) timer = setTimeout(tick, intervalMs);
    }
  };
  timer = setTimeout(tick, intervalMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** Jobs left running by a process that died are handed back to the queue at start. */
export const requeueInterrupted = (db: Kysely<Database>) =>
  db.updateTable('job').set({ status: 'pending', next_at: now() }).where('status', '=', 'running').execute();
