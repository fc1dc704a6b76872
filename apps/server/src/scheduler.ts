import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Store } from './store/db.ts';
import { runExclusive } from './store/exclusive.ts';
import type { Database } from './store/schema.ts';

/**
 * Work a server process repeats (clean-ups, certificate renewals, expiry warnings, usage
 * measurement), declared once in runtime.ts's SCHEDULES and run here the same way: one process
 * at a time however many share the store, every failure logged with the schedule's name, and a
 * failing schedule tried again soon, then less and less often.
 */
export interface Schedule {
  /** Names the schedule in the logs and its leader lock; unique. */
  name: string;
  /** Between runs; 0 turns the schedule off (a setting that disables it). */
  everyMs: number;
  /** The first run after the start; `everyMs` unless said. */
  firstAfterMs?: number;
  /**
   * One run, inside the leader's transaction (use `trx`, never the store: SQLite has one
   * connection and the transaction holds it). A function it answers runs once that has committed:
   * slow work like mail goes there, after the claims that keep it from running twice.
   */
  run(trx: Transaction<Database>): Promise<unknown>;
}

/** Where a schedule's failure goes: the error, the schedule's name and when it is tried again. */
export type ScheduleLog = (error: unknown, context: { schedule: string; retryInMs: number }) => void;

export interface SchedulerOptions {
  /** The first wait after a failure; it doubles with each failure in a row. */
  retryMs?: number;
  /** The longest wait after failures, unless the schedule's own interval is longer. */
  maxBackoffMs?: number;
}

export interface Scheduler {
  /** Starts every schedule's timer; the answer stops them and resolves once a run in progress has ended. */
  start(): () => Promise<void>;
  /** Runs one schedule now, as its timer would (leader lock, log, back-off): answers whether this process ran it. */
  runNow(name: string): Promise<boolean>;
}

/** The advisory-lock key of a schedule, from its name: stable across versions and processes. */
export function scheduleLockKey(name: string): number {
  return 7_414_100_000 + (createHash('sha256').update(name).digest().readUInt32BE(0) % 1_000_000);
}

/** The wait after `failures` failures in a row: retryMs, doubling, at most max(interval, maxBackoffMs). */
export const retryDelay = (failures: number, everyMs: number, retryMs: number, maxBackoffMs: number) =>
  Math.min(retryMs * 2 ** (failures - 1), Math.max(everyMs, maxBackoffMs));

export function createScheduler(store: Store, schedules: Schedule[], log: ScheduleLog, options: SchedulerOptions = {}): Scheduler {
  const { retryMs = 30_000, maxBackoffMs = 3_600_000 } = options;
  const byName = new Map<string, { schedule: Schedule; key: number; failures: number }>();
  const keys = new Set<number>();
  for (const schedule of schedules) {
    const key = scheduleLockKey(schedule.name);
    if (byName.has(schedule.name) || keys.has(key)) throw new Error(`schedule ${schedule.name} declared twice or its lock key taken`);
    keys.add(key);
    byName.set(schedule.name, { schedule, key, failures: 0 });
  }

  /** One run; answers the wait before the next, and whether this process was the leader. */
  async function once(name: string): Promise<{ ran: boolean; nextInMs: number }> {
    const entry = byName.get(name);
    if (!entry) throw new Error(`no schedule ${name}`);
    const { schedule, key } = entry;
    try {
      let after: unknown;
      const ran = await runExclusive(store, key, async (trx) => {
        after = await schedule.run(trx);
      });
      if (typeof after === 'function') await after();
      entry.failures = 0;
      return { ran, nextInMs: schedule.everyMs };
    } catch (error) {
      entry.failures++;
      const retryInMs = retryDelay(entry.failures, schedule.everyMs, retryMs, maxBackoffMs);
      log(error, { schedule: name, retryInMs });
      return { ran: true, nextInMs: retryInMs };
    }
  }

  return {
    start() {
      let stopped = false;
      const timers = new Set<NodeJS.Timeout>();
      const runs = new Set<Promise<unknown>>();
      const plan = (name: string, inMs: number) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (stopped) return;
          const run = once(name).then(({ nextInMs }) => {
            runs.delete(run);
            if (!stopped) plan(name, nextInMs);
          });
          runs.add(run);
        }, inMs);
        timer.unref();
        timers.add(timer);
      };
      for (const { schedule } of byName.values()) if (schedule.everyMs > 0) plan(schedule.name, schedule.firstAfterMs ?? schedule.everyMs);
      return async () => {
        stopped = true;
        for (const timer of timers) clearTimeout(timer);
        await Promise.allSettled([...runs]);
      };
    },
    runNow: async (name) => (await once(name)).ran,
  };
}
