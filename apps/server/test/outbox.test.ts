import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { backoffSeconds, createOutbox, enqueue, type JobHandler, MAX_ATTEMPTS, type Outbox } from '../src/outbox/outbox.ts';
import { describeStores, openTestStore } from './stores.ts';

describeStores('the outbox on %s', (kind) => {
  let ctx: Awaited<ReturnType<typeof openTestStore>>;
  let outbox: Outbox;
  beforeAll(async () => {
    ctx = await openTestStore(kind);
    outbox = createOutbox(ctx.store);
  });
  const registerJobHandler = (kind: string, handler: JobHandler) => outbox.register({ [kind]: handler });
  const drainJobs = (_store: unknown, limit?: number) => outbox.drain(limit);
  const runOneJob = (_store: unknown) => outbox.runOne();
  afterAll(() => ctx.cleanup());

  it('writes a job with the panel change in one transaction, so a rollback leaves neither', async () => {
    await expect(
      ctx.store.transaction().execute(async (trx) => {
        await enqueue(trx, 'test.never', { a: 1 });
        throw new Error('the panel change failed');
      }),
    ).rejects.toThrow();
    expect(await ctx.store.selectFrom('job').selectAll().where('kind', '=', 'test.never').execute()).toEqual([]);
  });

  it('applies a job and marks it done', async () => {
    const applied: unknown[] = [];
    registerJobHandler('test.ok', async (payload) => {
      applied.push(payload);
    });
    const id = await enqueue(ctx.store, 'test.ok', { zone: 'a.test' });
    await drainJobs(ctx.store);
    expect(applied).toEqual([{ zone: 'a.test' }]);
    expect(await ctx.store.selectFrom('job').select(['status', 'progress']).where('id', '=', id).executeTakeFirst()).toEqual({
      status: 'done',
      progress: 100,
    });
  });

  it('retries a failing job with back-off and ends it as failed, visible with its error', async () => {
    registerJobHandler('test.down', async () => {
      throw new Error('backend unreachable');
    });
    const id = await enqueue(ctx.store, 'test.down', {});
    await runOneJob(ctx.store);
    const after1 = await ctx.store.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(after1).toMatchObject({ status: 'pending', attempts: 1, last_error: 'backend unreachable' });
    expect(after1.next_at).toBeGreaterThan(after1.created_at);
    for (let i = 1; i < MAX_ATTEMPTS; i++) {
      await ctx.store.updateTable('job').set({ next_at: 0 }).where('id', '=', id).execute();
      await runOneJob(ctx.store);
    }
    expect(await ctx.store.selectFrom('job').select(['status', 'attempts']).where('id', '=', id).executeTakeFirst()).toEqual({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
    });
  });

  it('waits 1 s, 2 s, 4 s … up to 5 minutes between tries, and does not try again before then', async () => {
    expect([1, 2, 3, 4, 5, 8, 9, 10, 20].map(backoffSeconds)).toEqual([1, 2, 4, 8, 16, 128, 256, 300, 300]);
    let calls = 0;
    registerJobHandler('test.slow', async () => {
      calls++;
      throw new Error('still down');
    });
    const id = await enqueue(ctx.store, 'test.slow', {});
    const start = Date.now();
    const at = (seconds: number) => vi.setSystemTime(start + seconds * 1000);
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    try {
      // Tries at 0 s, then 1 s later, then 2 s after that, then 4 s after that.
      for (const [wait, attempt] of [
        [0, 1],
        [1, 2],
        [3, 3],
        [7, 4],
      ]) {
        at(wait - 0.999); // just before the next try is due: nothing runs
        await drainJobs(ctx.store);
        expect(calls).toBe(attempt - 1);
        at(wait);
        await drainJobs(ctx.store);
        expect(calls).toBe(attempt);
      }
      const job = await ctx.store.selectFrom('job').select(['next_at', 'attempts']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(job).toEqual({ attempts: 4, next_at: Math.floor(start / 1000) + 7 + 8 });
    } finally {
      vi.useRealTimers();
      await ctx.store.updateTable('job').set({ status: 'failed' }).where('id', '=', id).execute();
    }
  });

  it('marks a job running while its handler works, with the progress it reports', async () => {
    const seen: unknown[] = [];
    registerJobHandler('test.progress', async (_payload, job, progress) => {
      const db = ctx.store;
      seen.push(await db.selectFrom('job').select(['status', 'progress']).where('id', '=', job.id).executeTakeFirstOrThrow());
      await progress(42.4);
      seen.push(await db.selectFrom('job').select(['status', 'progress']).where('id', '=', job.id).executeTakeFirstOrThrow());
    });
    const id = await enqueue(ctx.store, 'test.progress', {});
    await runOneJob(ctx.store);
    expect(seen).toEqual([
      { status: 'running', progress: 0 },
      { status: 'running', progress: 42 },
    ]);
    expect(await ctx.store.selectFrom('job').select(['status', 'progress']).where('id', '=', id).executeTakeFirst()).toEqual({
      status: 'done',
      progress: 100,
    });
  });

  it('fails a job of a kind no one handles, saying so', async () => {
    const id = await enqueue(ctx.store, 'test.nobody', {});
    await runOneJob(ctx.store);
    const job = await ctx.store.selectFrom('job').select(['status', 'last_error']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'pending', last_error: 'no handler for job kind test.nobody' });
    await ctx.store.updateTable('job').set({ status: 'failed' }).where('id', '=', id).execute();
  });

  it('refuses a job kind registered twice and keeps applying it with the first handler', async () => {
    const applied: string[] = [];
    registerJobHandler('test.twice', async () => {
      applied.push('first');
    });
    expect(() =>
      registerJobHandler('test.twice', async () => {
        applied.push('second');
      }),
    ).toThrow('job kind test.twice registered twice');
    await enqueue(ctx.store, 'test.twice', {});
    await drainJobs(ctx.store);
    expect(applied).toEqual(['first']);
  });

  it('answers stopped() at once for a worker never started', async () => {
    await expect(createOutbox(ctx.store).stopped()).resolves.toBeUndefined();
  });

  it('drains at most the number of jobs it is given', async () => {
    let calls = 0;
    registerJobHandler('test.count', async () => {
      calls++;
    });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await enqueue(ctx.store, 'test.count', {}));
    await drainJobs(ctx.store, 2);
    expect(calls).toBe(2);
    await drainJobs(ctx.store);
    expect(calls).toBe(3);
  });

  it('keeps the first 1,000 characters of a long error', async () => {
    registerJobHandler('test.verbose', async () => {
      throw new Error(`${'e'.repeat(999)}|and more`);
    });
    const id = await enqueue(ctx.store, 'test.verbose', {});
    await runOneJob(ctx.store);
    const job = await ctx.store.selectFrom('job').select(['last_error', 'status']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(job.last_error).toBe(`${'e'.repeat(999)}|`);
    await ctx.store.updateTable('job').set({ status: 'failed' }).where('id', '=', id).execute();
  });

  it('never runs a job that is not pending, whatever its time', async () => {
    let calls = 0;
    registerJobHandler('test.idle', async () => {
      calls++;
    });
    for (const status of ['running', 'done', 'failed'] as const) {
      const id = await enqueue(ctx.store, 'test.idle', {});
      await ctx.store.updateTable('job').set({ status, next_at: 0 }).where('id', '=', id).execute();
    }
    await drainJobs(ctx.store);
    expect(calls).toBe(0);
  });
});
