import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';
import { createLogger } from '../src/logger.ts';
import { usageSchedule } from '../src/modules/service/usage.ts';
import { createScheduler, type Schedule } from '../src/scheduler.ts';
import { openStore, type Store } from '../src/store/db.ts';
import { captureLogLines } from './log-lines.ts';
import { describeStores, openTestStore } from './stores.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeStores('the scheduled work on %s', (kind) => {
  let ctx: Awaited<ReturnType<typeof openTestStore>>;
  /** PostgreSQL: a second process's own pool. SQLite: the same file through the same connection. */
  let other: Store;
  beforeAll(async () => {
    ctx = await openTestStore(kind);
    other = kind === 'postgres' ? await openStore(ctx.config) : ctx.store;
  });
  afterAll(async () => {
    if (other !== ctx.store) await other.destroy();
    await ctx.cleanup();
  });

  it('logs a failing schedule with its name and tries it again sooner than its interval, then less and less often', async () => {
    const runs: number[] = [];
    const logged: { message: string; schedule: string; retryInMs: number }[] = [];
    const failing: Schedule = {
      name: 'always-failing',
      everyMs: 100,
      firstAfterMs: 0,
      run: async () => {
        runs.push(Date.now());
        throw new Error('backend down');
      },
    };
    const scheduler = createScheduler(
      ctx.store,
      [failing],
      (error, context) => logged.push({ message: (error as Error).message, ...context }),
      { retryMs: 40, maxBackoffMs: 200 },
    );
    const stop = scheduler.start();
    await pause(900);
    await stop();
    // 40 ms, doubling, past its own interval (100 ms) up to the ceiling (200 ms).
    expect(logged.slice(0, 5)).toEqual(
      [40, 80, 160, 200, 200].map((retryInMs) => ({ message: 'backend down', schedule: 'always-failing', retryInMs })),
    );
    // Each try waited what the previous failure announced.
    for (let i = 1; i < runs.length; i++) expect(runs[i] - runs[i - 1]).toBeGreaterThanOrEqual(logged[i - 1].retryInMs - 5);
    expect(runs.length).toBeGreaterThanOrEqual(5);
    expect(runs.length).toBeLessThanOrEqual(7);
  });

  it('starts again from its interval after a run succeeds', async () => {
    let calls = 0;
    const logged: number[] = [];
    const flaky: Schedule = {
      name: 'flaky-once',
      everyMs: 5_000,
      firstAfterMs: 0,
      run: async () => {
        calls++;
        if (calls === 1) throw new Error('once');
      },
    };
    const scheduler = createScheduler(ctx.store, [flaky], (_error, context) => logged.push(context.retryInMs), { retryMs: 30 });
    const stop = scheduler.start();
    await pause(400);
    await stop();
    expect(logged).toEqual([30]);
    expect(calls).toBe(2);
  });

  it('runs a schedule in one process at a time on a shared store: never two runs at once', async () => {
    let active = 0;
    let most = 0;
    const sweep: Schedule = {
      name: 'shared-sweep',
      everyMs: 60_000,
      run: async (trx) => {
        active++;
        most = Math.max(most, active);
        await trx.selectFrom('job').select('id').limit(1).execute();
        await pause(200);
        active--;
      },
    };
    const never = () => {
      throw new Error('no failure expected');
    };
    const ran = await Promise.all([
      createScheduler(ctx.store, [sweep], never).runNow('shared-sweep'),
      createScheduler(other, [sweep], never).runNow('shared-sweep'),
    ]);
    expect(most).toBe(1);
    // PostgreSQL: the second process skips the round its leader holds; SQLite's one writer takes turns.
    expect(ran).toEqual(kind === 'postgres' ? expect.arrayContaining([true, false]) : [true, true]);
  });

  it('runs what a schedule answers only after its transaction committed, outside the lock', async () => {
    const seen: string[] = [];
    const scheduler = createScheduler(
      ctx.store,
      [
        {
          name: 'after-commit',
          everyMs: 60_000,
          run: async (trx) => {
            await trx
              .insertInto('audit_event')
              .values({ at: 1, realm_id: null, user_id: null, action: 'scheduler.test', outcome: 'applied', detail: '{}' })
              .execute();
            return async () => {
              // The store itself (not the transaction) sees the row: the transaction has committed.
              seen.push(
                String((await ctx.store.selectFrom('audit_event').select('id').where('action', '=', 'scheduler.test').execute()).length),
              );
            };
          },
        },
      ],
      () => {},
    );
    expect(await scheduler.runNow('after-commit')).toBe(true);
    expect(seen).toEqual(['1']);
  });
});

it('keeps the usage measurement on hosting.usageRefreshMinutes: every 10 minutes at most, off at 0', () => {
  expect(usageSchedule(loadConfig({}, { 'hosting.usageRefreshMinutes': 60 })).everyMs).toBe(600_000);
  expect(usageSchedule(loadConfig({}, { 'hosting.usageRefreshMinutes': 5 })).everyMs).toBe(300_000);
  expect(usageSchedule(loadConfig({}, { 'hosting.usageRefreshMinutes': 0 })).everyMs).toBe(0);
});

it('logs a failing schedule of the server once, as an error line naming the schedule and when it is tried again', async () => {
  const opened = await openTestStore('sqlite');
  const { lines, stream } = captureLogLines();
  const app = await buildApp({ config: opened.config, store: opened.store, worker: false, logger: createLogger(opened.config, stream) });
  try {
    // The clean-up's table is gone: its next run fails.
    await sql`DROP TABLE used_challenge`.execute(opened.store);
    expect(await app.runtime.scheduler.runNow('housekeeping')).toBe(true);
    const failures = lines.filter((line) => line.level === 50);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ msg: 'schedule housekeeping failed', schedule: 'housekeeping', retryInMs: 30_000 });
    expect(JSON.stringify(failures[0].err)).toContain('used_challenge');
  } finally {
    await app.close();
    await opened.cleanup();
  }
});
