import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainJobs, enqueue, MAX_ATTEMPTS, registerJobHandler, runOneJob } from '../src/outbox/outbox.ts';
import { openTestStore, STORE_KINDS } from './stores.ts';

describe.each(STORE_KINDS)('the outbox on %s', (kind) => {
  let ctx: Awaited<ReturnType<typeof openTestStore>>;
  beforeAll(async () => {
    ctx = await openTestStore(kind);
  });
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
    expect(await ctx.store.selectFrom('job').select(['status', 'progress']).where('id', '=', id).executeTakeFirst()).toEqual({ status: 'done', progress: 100 });
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
    expect(await ctx.store.selectFrom('job').select(['status', 'attempts']).where('id', '=', id).executeTakeFirst()).toEqual({ status: 'failed', attempts: MAX_ATTEMPTS });
  });
});
