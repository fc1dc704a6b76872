import { afterAll, beforeAll, expect, it } from 'vitest';
import { createOutbox, enqueue, withTimeLimit } from '../src/outbox/outbox.ts';
import { PermanentJobError } from '../src/outbox/permanent.ts';
import { openStore, type Store } from '../src/store/db.ts';
import { createSignals } from '../src/store/signals.ts';
import { describeStores, openTestStore } from './stores.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => Promise<boolean> | boolean, ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await pause(10);
  }
  return false;
}

/** A promise and the function that settles it, for handlers the test holds. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describeStores('the outbox worker stays live on %s', (kind) => {
  let ctx: Awaited<ReturnType<typeof openTestStore>>;
  /** A second pool on the same store, as another process (the CLI, a second server) would have. */
  let other: Store;
  beforeAll(async () => {
    ctx = await openTestStore(kind);
    other = await openStore(ctx.config);
  });
  afterAll(async () => {
    await other.destroy();
    await ctx.cleanup();
  });
  const jobRow = (id: number) =>
    ctx.store.selectFrom('job').select(['status', 'attempts', 'last_error', 'lease_until']).where('id', '=', id).executeTakeFirstOrThrow();

  it('runs a job queued in this process at once, without waiting for its idle poll', async () => {
    const signals = createSignals(ctx.store, ctx.config.databaseUrl);
    const outbox = createOutbox(ctx.store, { signals, fallbackMs: 60_000 });
    let appliedAt = 0;
    outbox.register({
      'wake.own': async () => {
        appliedAt = Date.now();
      },
    });
    const stop = outbox.start(60_000);
    await signals.ready();
    await pause(300); // the first look found nothing: the worker sleeps for a minute
    const queuedAt = Date.now();
    await ctx.store.transaction().execute((trx) => enqueue(trx, 'wake.own', {}, 8001));
    expect(await until(() => appliedAt > 0, 3000)).toBe(true);
    expect(appliedAt - queuedAt).toBeLessThan(1000);
    stop();
    await outbox.stopped();
    await signals.close();
  });

  it('keeps its other slots claiming while one job runs long, for jobs this process or another queued', async () => {
    const signals = createSignals(ctx.store, ctx.config.databaseUrl);
    const outbox = createOutbox(ctx.store, { signals, concurrency: 3, fallbackMs: 200 });
    const long = gate();
    const applied: string[] = [];
    outbox.register({
      'slot.long': async () => {
        applied.push('long started');
        await long.opened;
      },
      'slot.short': async (payload) => void applied.push((payload as { by: string }).by),
    });
    const stop = outbox.start(100);
    await signals.ready();
    await enqueue(ctx.store, 'slot.long', {}, 8101);
    expect(await until(() => applied.includes('long started'), 3000)).toBe(true);
    const t0 = Date.now();
    await enqueue(ctx.store, 'slot.short', { by: 'this process' }, 8102);
    expect(await until(() => applied.includes('this process'), 3000)).toBe(true);
    expect(Date.now() - t0).toBeLessThan(1000);
    // Another process's job: no wake-up reaches this one on SQLite, its poll must still run while busy.
    const t1 = Date.now();
    await enqueue(other, 'slot.short', { by: 'another process' }, 8103);
    expect(await until(() => applied.includes('another process'), 3000)).toBe(true);
    expect(Date.now() - t1).toBeLessThan(1000);
    long.open();
    stop();
    await outbox.stopped();
    await signals.close();
  });

  it('aborts a job past its time limit through its signal, fails that attempt with the reason and frees the slot', async () => {
    const outbox = createOutbox(ctx.store, { concurrency: 1 });
    let abortedWith: unknown = null;
    outbox.register({
      // Ignores nothing: it ends when told to, as fetch and child processes do with the signal.
      'limit.slow': withTimeLimit(0.3, (_payload, _job, _progress, signal) => {
        return new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            abortedWith = signal.reason;
            reject(signal.reason);
          });
        });
      }),
      // Never looks at its signal: the worker must not wait for it either.
      'limit.deaf': withTimeLimit(0.3, () => new Promise(() => {})),
      'limit.next': async () => {},
    });
    const slow = await enqueue(ctx.store, 'limit.slow', {}, 8201);
    const deaf = await enqueue(ctx.store, 'limit.deaf', {}, 8202);
    const next = await enqueue(ctx.store, 'limit.next', {}, 8203);
    const started = Date.now();
    const stop = outbox.start(20);
    expect(await until(async () => (await jobRow(next)).status === 'done', 5000)).toBe(true);
    expect(Date.now() - started).toBeLessThan(2000);
    stop();
    await outbox.stopped();
    expect(String(abortedWith)).toContain('time limit of 0.3 s');
    for (const id of [slow, deaf]) {
      // Each is retried after its back-off (a second), which a slow run may have reached already.
      const row = await jobRow(id);
      expect(row.last_error).toBe('stopped: it ran past its time limit of 0.3 s');
      expect(row.attempts).toBeGreaterThanOrEqual(1);
    }
  });

  it('ends a job failed at its first try when its handler throws a PermanentJobError, and retries any other error', async () => {
    const outbox = createOutbox(ctx.store);
    outbox.register({
      'permanent.refused': async () => {
        throw new PermanentJobError('path leaves its root through a link');
      },
      'permanent.flaky': async () => {
        throw new Error('backend unreachable');
      },
    });
    const refused = await enqueue(ctx.store, 'permanent.refused', {}, 8301);
    const flaky = await enqueue(ctx.store, 'permanent.flaky', {}, 8302);
    // Earlier cases' jobs may be due too: this worker tries whatever it claims until both ran once.
    const tried = async () => (await jobRow(refused)).attempts > 0 && (await jobRow(flaky)).attempts > 0;
    for (let i = 0; i < 20 && !(await tried()); i++) await outbox.runOne();
    expect(await jobRow(refused)).toMatchObject({ status: 'failed', attempts: 1, last_error: 'path leaves its root through a link' });
    expect(await jobRow(flaky)).toMatchObject({ status: 'pending', attempts: 1, last_error: 'backend unreachable' });
  });

  it('stops within its grace while a job hangs, aborting it and leaving its lease to run out for another worker', async () => {
    const outbox = createOutbox(ctx.store, { stopGraceMs: 300, leaseSeconds: 30 });
    let signalOf: AbortSignal | null = null;
    outbox.register({
      'grace.hang': async (_payload, _job, _progress, signal) => {
        signalOf = signal;
        await new Promise(() => {});
      },
    });
    const id = await enqueue(ctx.store, 'grace.hang', {}, 8401);
    const stop = outbox.start(20);
    expect(await until(() => signalOf !== null, 3000)).toBe(true);
    const stopping = Date.now();
    stop();
    await outbox.stopped();
    expect(Date.now() - stopping).toBeLessThan(1500);
    expect(signalOf!.aborted).toBe(true);
    const left = await jobRow(id);
    expect(left.status).toBe('running');
    expect(left.attempts).toBe(0);
    expect(left.lease_until).toBeGreaterThan(Date.now() / 1000);
    // Its lease runs out (made so here): another worker takes the job over and applies it.
    await ctx.store.updateTable('job').set({ lease_until: 0 }).where('id', '=', id).execute();
    const next = createOutbox(other);
    next.register({ 'grace.hang': async () => {} });
    // Earlier cases' retries may be due as well: it claims until the given-up job is done.
    for (let i = 0; i < 20 && (await jobRow(id)).status !== 'done'; i++) await next.runOne();
    expect(await jobRow(id)).toMatchObject({ status: 'done', attempts: 1 });
  });
});
