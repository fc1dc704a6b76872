import { randomUUID } from 'node:crypto';
import { type Kysely, sql, type Transaction, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import { now, type Store } from '../store/db.ts';
import type { Database, Job } from '../store/schema.ts';
import type { Signals } from '../store/signals.ts';
import { claimJobs, nextDue } from './claim.ts';
import { laneColumns } from './lanes.ts';
import { PermanentJobError } from './permanent.ts';

/**
 * The outbox (docs/architecture.md#outbox). A change a backend must apply is written as a job in the
 * same transaction as the panel's own record, then applied by the worker and retried with back-off
 * until it succeeds. A job that keeps failing ends as `failed`, visible with its last error. Jobs of one
 * item that share a lane (outbox/lanes.ts) are applied one at a time in order; several processes
 * may run workers on one store.
 */
export interface JobHandler {
  /**
   * Brings a backend in line with the store. `signal` aborts when the job passes its time limit or
   * the worker gives it up at shutdown: pass it to fetch, child processes and clients that take one.
   */
  (payload: unknown, job: Job, progress: (percent: number) => Promise<void>, signal: AbortSignal): Promise<void>;
  /** Seconds one attempt may run (default DEFAULT_TIME_LIMIT_SECONDS); see withTimeLimit. */
  timeLimitSeconds?: number;
}

/** The job kinds an area applies, e.g. `{ 'dns.apply-zone': handler }`; handlers close over the runtime. */
export type JobHandlers = Record<string, JobHandler>;

/** How long one attempt of a job may run unless its handler says otherwise. */
export const DEFAULT_TIME_LIMIT_SECONDS = 300;

/**
 * A handler that may run longer (or must stop sooner) than the default: past `seconds` its signal
 * aborts, the attempt counts as failed with that reason, and its slot goes to other items' jobs.
 */
export function withTimeLimit(seconds: number, handler: JobHandler): JobHandler {
  return Object.assign(handler, { timeLimitSeconds: seconds });
}

/**
 * Where a job of a placed item applies: `node` (the default) on the item's node, through its agent;
 * `panel` on the panel itself whatever the placement (DNS zones and the registry, whose servers the
 * panel drives), so such a job never waits for a node's agent. `node` with `nodeId` pins a job to
 * that node, whatever the item's placement says when it is queued (a move's own job).
 */
export interface EnqueueOptions {
  on?: 'node' | 'panel';
  nodeId?: number | null;
}

export async function enqueue(
  trx: Transaction<Database> | Kysely<Database>,
  kind: string,
  payload: unknown,
  itemId: number | null = null,
  options: EnqueueOptions = {},
) {
  const t = now();
  const nodeId =
    itemId === null || options.on === 'panel'
      ? null
      : options.nodeId !== undefined
        ? options.nodeId
        : // The item's placement when queued decides who applies it: its node's agent, or (none) this panel.
          sql<number | null>`(SELECT node_id FROM item WHERE id = ${itemId})`;
  const job = await trx
    .insertInto('job')
    .values({
      kind,
      item_id: itemId,
      node_id: nodeId,
      ...laneColumns(kind),
      payload: JSON.stringify(payload),
      status: 'pending',
      next_at: t,
      created_at: t,
      updated_at: t,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return job.id;
}

export const MAX_ATTEMPTS = 8;
/** 1 s, 2 s, 4 s … capped at 5 minutes. */
export const backoffSeconds = (attempts: number) => Math.min(300, 2 ** Math.max(0, attempts - 1));

export interface Outbox {
  /** Adds an area's job kinds; a kind registered twice is a programming error. */
  register(handlers: JobHandlers): void;
  /** The kinds registered (each must have its lanes in outbox/lanes.ts; a test checks the runtime's). */
  kinds(): string[];
  /** Claims one claimable job (see claim.ts: safe across processes, one item's jobs in order) and applies it. */
  runOne(): Promise<Job | null>;
  /** Runs due jobs until none is left (waiting for those other workers hold); tests call it to apply changes deterministically. */
  drain(limit?: number): Promise<void>;
  /**
   * The background worker of a server process: applies up to `concurrency` jobs of different items
   * at once, each slot claiming again as soon as it is free, whatever the others run. It is woken
   * by every job queued in this process (both stores), by NOTIFY from other processes on
   * PostgreSQL (polling every `fallbackMs` in case one is lost), and polls every `intervalMs` on
   * SQLite for jobs other processes queued. The answer stops it; `stopped()` waits for running jobs
   * up to the stop grace.
   */
  start(intervalMs?: number): () => void;
  /**
   * A worker for one node's jobs only (a connected agent's, decision 040): the same claims, lease,
   * retry and order, each attempt run inside `around` (which points the drivers at the agent).
   */
  startFor(scope: WorkerScope): Worker;
  /**
   * Resolves when the worker has stopped: its running jobs ended, or the stop grace passed. Jobs
   * still running then are aborted and given up untouched: their lease runs out and another
   * worker (or the next start) takes them over.
   */
  stopped(): Promise<void>;
  /** Running jobs whose lease ended (their process died) go back to pending; any worker also takes them over. */
  requeueInterrupted(): Promise<unknown>;
}

export interface OutboxOptions {
  /** How long a claim holds without renewal; the worker renews it every third of it while a handler runs. */
  leaseSeconds?: number;
  /** Jobs one worker applies at once (of different items). */
  concurrency?: number;
  /** Wake-ups: this process's own new jobs (both stores) and other processes' (PostgreSQL). */
  signals?: Signals;
  /** Where errors of the worker itself (not of a job) are reported. */
  log?: (err: unknown) => void;
  /** The idle poll when wake-ups from other processes are live. */
  fallbackMs?: number;
  /** How long a stopping worker waits for its running jobs before giving them up. */
  stopGraceMs?: number;
  /** Told of each job that ends `failed` (the operator's `job.failed` webhook); its errors go to `log`. */
  onFailed?: (job: Job) => Promise<void>;
}

/** Whose jobs a worker takes and what each attempt runs inside. */
export interface WorkerScope {
  node: number;
  around: <T>(run: () => Promise<T>, job: Job) => Promise<T>;
  intervalMs?: number;
  concurrency?: number;
}

/** A started worker: `stop()` ends its claims; `done` resolves once its running jobs ended or were given up. */
export interface Worker {
  stop(): void;
  done: Promise<void>;
}

/** A running attempt a stopping worker can give up: its signal aborts, its lease is left to run out. */
interface Attempt {
  giveUp(): void;
}

/** One outbox per app: the handlers of its areas, applied against its store. */
export function createOutbox(db: Store, options: OutboxOptions = {}): Outbox {
  const { leaseSeconds = 30, concurrency = 4, signals, log = () => {}, fallbackMs = 5000, stopGraceMs = 5000, onFailed } = options;
  const handlers = new Map<string, JobHandler>();
  const owner = randomUUID().slice(0, 8);
  let claims = 0;

  function apply(handler: JobHandler, job: Job, signal: AbortSignal) {
    return handler(
      JSON.parse(job.payload),
      job,
      async (percent) => {
        await db
          .updateTable('job')
          .set({ progress: Math.round(percent), updated_at: now() })
          .where('id', '=', job.id)
          .where('claimed_by', '=', job.claimed_by)
          .where('status', '=', 'running')
          .execute();
      },
      signal,
    );
  }

  /**
   * Applies a claimed job, renewing its lease meanwhile; only the current claim records the outcome.
   * Past its time limit the handler's signal aborts and the attempt fails at once, whether or not
   * the handler has noticed yet: the slot is free for other jobs and the retry waits its back-off.
   */
  async function execute(job: Job, attempts?: Set<Attempt>, around?: WorkerScope['around']) {
    const mine = (q: UpdateQueryBuilder<Database, 'job', 'job', UpdateResult>) =>
      q.where('id', '=', job.id).where('claimed_by', '=', job.claimed_by).where('status', '=', 'running');
    const renew = setInterval(
      () =>
        void mine(db.updateTable('job').set({ lease_until: now() + leaseSeconds }))
          .execute()
          .catch(log),
      (leaseSeconds * 1000) / 3,
    );
    const handler = handlers.get(job.kind);
    const limit = handler?.timeLimitSeconds ?? DEFAULT_TIME_LIMIT_SECONDS;
    const controller = new AbortController();
    let deadline: NodeJS.Timeout | undefined;
    let givenUp = false;
    const attempt: Attempt = {
      giveUp() {
        givenUp = true;
        clearInterval(renew);
        controller.abort(new Error('the worker stopped (server shutting down)'));
      },
    };
    attempts?.add(attempt);
    let failure: unknown = null;
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      const overtime = new Promise<never>((_resolve, reject) => {
        deadline = setTimeout(() => {
          const error = new Error(`stopped: it ran past its time limit of ${limit} s`);
          controller.abort(error);
          reject(error);
        }, limit * 1000);
      });
      const run = () => apply(handler, job, controller.signal);
      await Promise.race([around ? around(run, job) : run(), overtime]);
    } catch (error) {
      failure = error ?? new Error('failed');
    } finally {
      clearTimeout(deadline);
      clearInterval(renew);
      attempts?.delete(attempt);
    }
    if (givenUp) return;
    if (failure === null) {
      await mine(
        db.updateTable('job').set({ status: 'done', progress: 100, last_error: null, lease_until: null, updated_at: now() }),
      ).execute();
      return;
    }
    const tries = job.attempts + 1;
    const failed = tries >= MAX_ATTEMPTS || failure instanceof PermanentJobError;
    const recorded = await mine(
      db.updateTable('job').set({
        status: failed ? 'failed' : 'pending',
        attempts: tries,
        next_at: now() + backoffSeconds(tries),
        last_error: String((failure as Error).message ?? failure).slice(0, 1000),
        lease_until: null,
        updated_at: now(),
      }),
    ).executeTakeFirst();
    const last_error = String((failure as Error).message ?? failure).slice(0, 1000);
    if (failed && onFailed && Number(recorded.numUpdatedRows) > 0) {
      await onFailed({ ...job, status: 'failed', attempts: tries, last_error }).catch(log);
    }
  }

  const claim = (limit: number, node: number | null = null) => claimJobs(db, leaseSeconds, `${owner}:${++claims}`, now(), limit, node);

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

  /** One claiming worker: the panel's own (`node` null) or one node's, `slots` jobs at once. */
  function startWorker(intervalMs: number, node: number | null, slots: number, around?: WorkerScope['around']): Worker {
    const running = new Set<Promise<void>>();
    const attempts = new Set<Attempt>();
    let stopped = false;
    let pumping = false;
    /** The last claiming loop started: stop waits for it, since a claim may be in flight. */
    let pumpRun: Promise<void> = Promise.resolve();
    let again = false;
    let timer: NodeJS.Timeout | undefined;
    const idleMs = signals?.live ? fallbackMs : intervalMs;

    /** Claims while there is room and work; each finished job frees its slot and asks for another round. */
    async function fill() {
      while (!stopped && running.size < slots) {
        const room = slots - running.size;
        const jobs = await claim(room, node);
        // Stopped while the claim was on its way: what it took goes back for another worker.
        if (stopped) {
          await release(jobs);
          return;
        }
        for (const job of jobs) {
          const run: Promise<void> = execute(job, attempts, around)
            .catch(log)
            .finally(() => {
              running.delete(run);
              wake();
            });
          running.add(run);
        }
        if (jobs.length < room) return;
      }
    }

    /**
     * Sets the next look whenever a slot is free, busy or idle: a job another process queued while
     * this one's run is found by then at the latest, so free slots never wait for a running job.
     */
    async function arm() {
      clearTimeout(timer);
      // Full: the first job to end wakes the worker.
      if (stopped || running.size >= slots) return;
      let wait = idleMs;
      if (signals?.live) {
        const due = await nextDue(db, node);
        if (due !== null) wait = Math.max(50, Math.min(wait, (due - now()) * 1000 + 20));
      }
      clearTimeout(timer);
      if (!stopped) timer = setTimeout(wake, wait);
    }

    async function pump() {
      pumping = true;
      try {
        do {
          again = false;
          try {
            await fill();
            await arm();
          } catch (error) {
            log(error);
            clearTimeout(timer);
            if (!stopped) timer = setTimeout(wake, idleMs);
          }
          // A wake-up that came while this round ran is answered by another round.
        } while (again && !stopped);
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
    timer = setTimeout(wake, 0);
    let finish = () => {};
    const done = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const stop = () => {
      if (stopped) return;
      stopped = true;
      unlisten();
      clearTimeout(timer);
      // Done when the claiming loop has ended (releasing a claim that was in flight) and every
      // job it had started has ended, or the grace has passed: what still runs then is given up.
      void (async () => {
        let grace: NodeJS.Timeout | undefined;
        let over = false;
        const graceOver = new Promise<void>((resolve) => {
          grace = setTimeout(() => {
            over = true;
            resolve();
          }, stopGraceMs);
        });
        while (!over && (pumping || running.size > 0)) await Promise.race([Promise.allSettled([pumpRun, ...running]), graceOver]);
        clearTimeout(grace);
        for (const attempt of attempts) attempt.giveUp();
        await pumpRun.catch(() => {});
        finish();
      })();
    };
    return { stop, done };
  }

  const worker = { stop: () => {}, done: Promise.resolve() };

  return {
    register(more) {
      for (const [kind, handler] of Object.entries(more)) {
        if (handlers.has(kind)) throw new Error(`job kind ${kind} registered twice`);
        handlers.set(kind, handler);
      }
    },
    kinds: () => [...handlers.keys()],
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
      const started = startWorker(intervalMs, null, concurrency);
      worker.stop = started.stop;
      worker.done = started.done;
      return () => worker.stop();
    },
    startFor: ({ node, around, intervalMs = 250, concurrency: slots = 1 }) => startWorker(intervalMs, node, slots, around),
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
