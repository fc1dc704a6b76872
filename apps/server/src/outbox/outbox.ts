import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction, UpdateQueryBuilder, UpdateResult } from 'kysely';
import { now, type Store } from '../store/db.ts';
import type { Database, Job } from '../store/schema.ts';
import type { Signals } from '../store/signals.ts';
import { claimJobs, nextDue } from './claim.ts';

/**
 * The outbox (docs/architecture.md#outbox). A change a backend must apply is written as a job in the
 * same transaction as the panel's own record, then applied by the worker and retried with back-off
 * until it succeeds. A job that keeps failing ends as `failed`, visible with its last error. Jobs of one
 * item are applied one at a time in order; several processes may run workers on one store.
 */
export type JobHandler = (payload: unknown, job: Job, progress: (percent: number) => Promise<void>) => Promise<void>;

/** The job kinds an area applies, e.g. `{ 'dns.apply-zone': handler }`; handlers close over the runtime. */
export type JobHandlers = Record<string, JobHandler>;

export async function enqueue(trx: Transaction<Database> | Kysely<Database>, kind: string, payload: unknown, itemId: number | null = null) {
  const t = now();
  const job = await trx
    .insertInto('job')
    .values({ kind, item_id: itemId, payload: JSON.stringify(payload), status: 'pending', next_at: t, created_at: t, updated_at: t })
    .returning('id')
    .executeTakeFirstOrThrow();
  return job.id;
}

/**
 * A failure that trying again cannot fix (an ACME server's verdict on a challenge, say): the job
 * ends `failed` at once with this message instead of being retried.
 */
export class JobRefused extends Error {}

export const MAX_ATTEMPTS = 8;
/** 1 s, 2 s, 4 s … capped at 5 minutes. */
export const backoffSeconds = (attempts: number) => Math.min(300, 2 ** Math.max(0, attempts - 1));

export interface Outbox {
  /** Adds an area's job kinds; a kind registered twice is a programming error. */
  register(handlers: JobHandlers): void;
  /** Claims one claimable job (see claim.ts: safe across processes, one item's jobs in order) and applies it. */
  runOne(): Promise<Job | null>;
  /** Runs due jobs until none is left (waiting for those other workers hold); tests call it to apply changes deterministically. */
  drain(limit?: number): Promise<void>;
  /**
   * The background worker of a server process: applies up to `concurrency` jobs of different items
   * at once, woken by NOTIFY on PostgreSQL (polling every `fallbackMs` in case one is lost) and by
   * polling every `intervalMs` on SQLite. The answer stops it; `stopped()` waits for running jobs.
   */
  start(intervalMs?: number): () => void;
  /** Resolves when the worker has stopped and its running jobs ended. */
  stopped(): Promise<void>;
  /** Running jobs whose lease ended (their process died) go back to pending; any worker also takes them over. */
  requeueInterrupted(): Promise<unknown>;
}

export interface OutboxOptions {
  /** How long a claim holds without renewal; the worker renews it every third of it while a handler runs. */
  leaseSeconds?: number;
  /** Jobs one worker applies at once (of different items). */
  concurrency?: number;
  /** Cross-process wake-ups (PostgreSQL); without them the worker polls. */
  signals?: Signals;
  /** Where errors of the worker itself (not of a job) are reported. */
  log?: (err: unknown) => void;
  /** The idle poll when wake-ups are live. */
  fallbackMs?: number;
}

/** One outbox per app: the handlers of its areas, applied against its store. */
export function createOutbox(db: Store, options: OutboxOptions = {}): Outbox {
  const { leaseSeconds = 30, concurrency = 4, signals, log = () => {}, fallbackMs = 5000 } = options;
  const handlers = new Map<string, JobHandler>();
  const owner = randomUUID().slice(0, 8);
  let claims = 0;

  async function apply(job: Job) {
    const handler = handlers.get(job.kind);
    if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
    await handler(JSON.parse(job.payload), job, async (percent) => {
      await db
        .updateTable('job')
        .set({ progress: Math.round(percent), updated_at: now() })
        .where('id', '=', job.id)
        .where('claimed_by', '=', job.claimed_by)
        .execute();
    });
  }

  /** Applies a claimed job, renewing its lease meanwhile; only the current claim records the outcome. */
  async function execute(job: Job) {
    const mine = (q: UpdateQueryBuilder<Database, 'job', 'job', UpdateResult>) =>
      q.where('id', '=', job.id).where('claimed_by', '=', job.claimed_by).where('status', '=', 'running');
    const renew = setInterval(
      () =>
        void mine(db.updateTable('job').set({ lease_until: now() + leaseSeconds }))
          .execute()
          .catch(log),
      (leaseSeconds * 1000) / 3,
    );
    try {
      await apply(job);
      clearInterval(renew);
      await mine(
        db.updateTable('job').set({ status: 'done', progress: 100, last_error: null, lease_until: null, updated_at: now() }),
      ).execute();
    } catch (error) {
      clearInterval(renew);
      const attempts = job.attempts + 1;
      await mine(
        db.updateTable('job').set({
          status: attempts >= MAX_ATTEMPTS || error instanceof JobRefused ? 'failed' : 'pending',
          attempts,
          next_at: now() + backoffSeconds(attempts),
          last_error: String((error as Error).message ?? error).slice(0, 1000),
          lease_until: null,
          updated_at: now(),
        }),
      ).execute();
    }
  }

  const claim = (limit: number) => claimJobs(db, leaseSeconds, `${owner}:${++claims}`, now(), limit);

  /** Gives claimed jobs back untouched, for a worker that stopped before starting them. */
  async function release(jobs: Job[]) {
    if (jobs.length === 0) return;
    const ids = jobs.map((job) => job.id);
    await db
      .updateTable('job')
      .set({ status: 'pending', lease_until: null, claimed_by: null, updated_at: now() })
      .where('id', 'in', ids)
      .where('claimed_by', '=', jobs[0].claimed_by)
      .where('status', '=', 'running')
      .execute();
  }

  async function runOne(): Promise<Job | null> {
    const [job] = await claim(1);
    if (job) await execute(job);
    return job ?? null;
  }

  const worker = { stop: () => {}, done: Promise.resolve() };

  return {
    register(more) {
      for (const [kind, handler] of Object.entries(more)) {
        if (handlers.has(kind)) throw new Error(`job kind ${kind} registered twice`);
        handlers.set(kind, handler);
      }
    },
    runOne,
    async drain(limit = 1000) {
      const deadline = Date.now() + 30_000;
      for (let i = 0; i < limit; ) {
        if (await runOne()) {
          i++;
          continue;
        }
        // Nothing claimable: done, unless another worker (this app's own, another process) still
        // applies a job whose item has more waiting behind it.
        // (A due job behind an item's job waiting out its back-off stays for later, like that one.)
        const busy = await db
          .selectFrom('job')
          .select('id')
          .where('status', '=', 'running')
          .where('lease_until', '>=', now())
          .limit(1)
          .executeTakeFirst();
        if (Date.now() > deadline) return;
        if (!busy) {
          // The other worker may have finished between the claim that found nothing and this look:
          // with nothing running, one more claim tells for sure.
          if (await runOne()) {
            i++;
            continue;
          }
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    start(intervalMs = 250) {
      const running = new Set<Promise<void>>();
      let stopped = false;
      let pumping = false;
      /** The last claiming loop started: stop waits for it, since a claim may be in flight. */
      let pumpRun: Promise<void> = Promise.resolve();
      let again = false;
      let timer: NodeJS.Timeout | undefined;
      const idleMs = signals?.live ? fallbackMs : intervalMs;

      async function sleep() {
        if (stopped) return;
        let wait = idleMs;
        if (signals?.live) {
          const due = await nextDue(db);
          if (due !== null) wait = Math.max(50, Math.min(wait, (due - now()) * 1000 + 20));
        }
        clearTimeout(timer);
        if (!stopped) timer = setTimeout(wake, wait);
      }

      /** Claims while there is room and work; each finished job asks for another round. */
      async function pump() {
        pumping = true;
        try {
          do {
            again = false;
            while (!stopped && running.size < concurrency) {
              const room = concurrency - running.size;
              const jobs = await claim(room);
              // Stopped while the claim was on its way: what it took goes back for another worker.
              if (stopped) {
                await release(jobs);
                break;
              }
              for (const job of jobs) {
                const run: Promise<void> = execute(job)
                  .catch(log)
                  .finally(() => {
                    running.delete(run);
                    wake();
                  });
                running.add(run);
              }
              if (jobs.length < room) break;
            }
          } while (again && !stopped);
          if (running.size === 0) await sleep();
        } catch (error) {
          log(error);
          await sleep();
        } finally {
          pumping = false;
        }
      }
      function wake() {
        if (stopped) return;
        if (pumping) {
          again = true;
          return;
        }
        pumpRun = pump();
      }

      const unlisten = signals?.on('atalaya_job', wake) ?? (() => {});
      timer = setTimeout(wake, signals?.live ? 0 : intervalMs);
      let finish = () => {};
      worker.done = new Promise<void>((resolve) => {
        finish = resolve;
      });
      worker.stop = () => {
        if (stopped) return;
        stopped = true;
        unlisten();
        clearTimeout(timer);
        // Done when the claiming loop has ended (releasing a claim that was in flight) and every
        // job it had started has ended.
        void (async () => {
          while (pumping || running.size > 0) await Promise.allSettled([pumpRun, ...running]);
          finish();
        })();
      };
      return () => worker.stop();
    },
    stopped: () => worker.done,
    requeueInterrupted: () =>
      db
        .updateTable('job')
        .set({ status: 'pending', next_at: now(), lease_until: null, claimed_by: null })
        .where('status', '=', 'running')
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now())]))
        .execute(),
  };
}
