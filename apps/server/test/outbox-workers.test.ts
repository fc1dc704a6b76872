import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { nextDue } from '../src/outbox/claim.ts';
import { createOutbox, enqueue, type Outbox } from '../src/outbox/outbox.ts';
import { now, openStore, type Store } from '../src/store/db.ts';
import { createSignals } from '../src/store/signals.ts';
import { describePostgres, describeStores, openTestStore } from './stores.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => Promise<boolean>, ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await pause(20);
  }
  return false;
}

/** A plugin that holds the answer of the outbox's claim (the UPDATE that sets jobs running) until `open()`. */
function heldClaims() {
  const claims = new Set<string>();
  let open = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let held = false;
  const plugin: KyselyPlugin = {
    transformQuery({ node, queryId }) {
      if (JSON.stringify(node).includes("status = 'running', lease_until")) claims.add(queryId.queryId);
      return node;
    },
    async transformResult({ result, queryId }) {
      if (claims.has(queryId.queryId)) {
        held = true;
        await gate;
      }
      return result;
    },
  };
  return { plugin, open, held: () => held };
}

describeStores('the outbox with several workers on %s', (kind) => {
  let ctx: Awaited<ReturnType<typeof openTestStore>>;
  /** A second pool on the same store, as a second process would have. */
  let other: Store;
  beforeAll(async () => {
    ctx = await openTestStore(kind);
    other = await openStore(ctx.config);
  });
  afterAll(async () => {
    await other.destroy();
    await ctx.cleanup();
  });

  const counts = (store: Store, kindName: string) => store.selectFrom('job').select(['status']).where('kind', '=', kindName).execute();

  it("applies each item's jobs in commit order, never two at once, none twice, across two workers", async () => {
    const log: { item: number; seq: number; at: 'start' | 'end' }[] = [];
    const active = new Set<number>();
    let overlap = 0;
    const handler = async (payload: unknown) => {
      const { item, seq } = payload as { item: number; seq: number };
      if (active.has(item)) overlap++;
      active.add(item);
      log.push({ item, seq, at: 'start' });
      await pause(Math.random() * 4);
      active.delete(item);
      log.push({ item, seq, at: 'end' });
    };
    const workers: Outbox[] = [createOutbox(ctx.store, { concurrency: 4 }), createOutbox(other, { concurrency: 4 })];
    for (const w of workers) w.register({ 'order.step': handler });
    for (let seq = 0; seq < 8; seq++)
      for (let item = 1; item <= 10; item++) await enqueue(ctx.store, 'order.step', { item, seq }, 1000 + item);
    const stops = workers.map((w) => w.start(10));
    expect(await until(async () => (await counts(ctx.store, 'order.step')).every((j) => j.status === 'done'), 20_000)).toBe(true);
    for (const stop of stops) stop();
    await Promise.all(workers.map((w) => w.stopped()));
    expect(overlap).toBe(0);
    const starts = log.filter((e) => e.at === 'start');
    expect(starts).toHaveLength(80);
    for (let item = 1; item <= 10; item++)
      expect(starts.filter((e) => e.item === item).map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('applies jobs of different items at the same time within one worker, up to its concurrency', async () => {
    let active = 0;
    let most = 0;
    const outbox = createOutbox(ctx.store, { concurrency: 3 });
    outbox.register({
      'parallel.step': async () => {
        active++;
        most = Math.max(most, active);
        await pause(150);
        active--;
      },
    });
    for (let item = 1; item <= 6; item++) await enqueue(ctx.store, 'parallel.step', {}, 2000 + item);
    const stop = outbox.start(10);
    expect(await until(async () => (await counts(ctx.store, 'parallel.step')).every((j) => j.status === 'done'), 10_000)).toBe(true);
    stop();
    await outbox.stopped();
    expect(most).toBe(3);
  });

  it('gives back what a claim took after its worker stopped, and reports the worker stopped only then', async () => {
    const claims = heldClaims();
    const worker = createOutbox(Object.assign(ctx.store.withPlugin(claims.plugin), { kind: ctx.store.kind }) as Store);
    const ran: string[] = [];
    worker.register({ 'late.step': async () => void ran.push('stopped worker') });
    const id = await enqueue(ctx.store, 'late.step', {}, 4001);
    const stop = worker.start(10);
    expect(await until(async () => claims.held(), 5000)).toBe(true);
    stop();
    let reported = false;
    const stopped = worker.stopped().then(() => {
      reported = true;
    });
    await pause(50);
    expect(reported).toBe(false);
    claims.open();
    await stopped;
    expect(ran).toEqual([]);
    const job = () => ctx.store.selectFrom('job').select(['status', 'claimed_by']).where('id', '=', id).executeTakeFirst();
    expect(await job()).toEqual({ status: 'pending', claimed_by: null });
    const next = createOutbox(other);
    next.register({ 'late.step': async () => void ran.push('next worker') });
    expect((await next.runOne())?.id).toBe(id);
    expect(ran).toEqual(['next worker']);
    expect((await job())?.status).toBe('done');
  });

  it("takes over a running job whose lease expired, and ignores the first claim's late outcome, even while the second claim runs", async () => {
    let release = () => {};
    // A long lease: its renewal (every third of it) cannot come before the test ends it by hand.
    const first = createOutbox(ctx.store, { leaseSeconds: 60 });
    const applied: string[] = [];
    first.register({
      'lease.step': async () => {
        applied.push('first');
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        throw new Error('the first claim failed late');
      },
    });
    const id = await enqueue(ctx.store, 'lease.step', {}, 3001);
    const stuck = first.runOne();
    // The first claim must hold the job before its lease is ended by hand. (It once did not: the
    // previous case's worker, already stopped, had taken the job with a claim still in flight.)
    expect(await until(async () => applied.length === 1, 5000)).toBe(true);
    // The first worker stops renewing: as if its process froze, its lease runs out.
    await ctx.store.updateTable('job').set({ lease_until: 0 }).where('id', '=', id).execute();
    const second = createOutbox(other, { leaseSeconds: 2 });
    second.register({
      'lease.step': async () => {
        applied.push('second');
        // The first claim's failure lands while this one still runs: only its own claim may record an outcome.
        release();
        await stuck;
      },
    });
    expect((await second.runOne())?.id).toBe(id);
    expect(applied).toEqual(['first', 'second']);
    expect(await ctx.store.selectFrom('job').select(['status', 'attempts']).where('id', '=', id).executeTakeFirst()).toEqual({
      status: 'done',
      attempts: 1,
    });
  });

  it('renews the lease while a handler runs longer than the lease, so no other worker takes the job', async () => {
    const slow = createOutbox(ctx.store, { leaseSeconds: 2 });
    const rival = createOutbox(other, { leaseSeconds: 2 });
    let runs = 0;
    const handler = async () => {
      runs++;
      await pause(4500);
    };
    slow.register({ 'renew.step': handler });
    rival.register({ 'renew.step': handler });
    const id = await enqueue(ctx.store, 'renew.step', {}, 4001);
    const running = slow.runOne();
    await until(async () => runs === 1, 5000);
    for (let i = 0; i < 8; i++) {
      expect(await rival.runOne()).toBeNull();
      await pause(500);
    }
    await running;
    expect(runs).toBe(1);
    expect((await ctx.store.selectFrom('job').select('status').where('id', '=', id).executeTakeFirst())?.status).toBe('done');
  }, 15_000);

  it('stops while a job runs: stopped() waits for that job, and the worker claims nothing after the stop', async () => {
    let release = () => {};
    let runs = 0;
    const outbox = createOutbox(ctx.store, { concurrency: 1 });
    outbox.register({
      'stop.step': async () => {
        runs++;
        if (runs === 1) await new Promise<void>((resolve) => (release = resolve));
      },
    });
    const first = await enqueue(ctx.store, 'stop.step', {}, 6001);
    const stop = outbox.start(10);
    expect(await until(async () => runs === 1, 5000)).toBe(true);
    stop();
    let ended = false;
    const stopped = outbox.stopped().then(() => {
      ended = true;
    });
    // Another item's job, claimable at once: a worker still running would take it when the first ends.
    const later = await enqueue(ctx.store, 'stop.step', {}, 6002);
    await pause(50);
    expect(ended).toBe(false);
    release();
    await stopped;
    await pause(100);
    expect(runs).toBe(1);
    const rows = await ctx.store.selectFrom('job').select(['id', 'status']).where('kind', '=', 'stop.step').orderBy('id').execute();
    expect(rows).toEqual([
      { id: first, status: 'done' },
      { id: later, status: 'pending' },
    ]);
  });

  it('applies a job enqueued while it sat idle, at its next poll', async () => {
    const outbox = createOutbox(ctx.store);
    const applied: number[] = [];
    outbox.register({
      'idle.step': async (payload) => {
        applied.push((payload as { n: number }).n);
      },
    });
    const stop = outbox.start(10);
    // Several polls find nothing: the worker is idle, waiting for its next one.
    await pause(100);
    await enqueue(ctx.store, 'idle.step', { n: 1 }, 6101);
    expect(await until(async () => applied.length === 1, 5000)).toBe(true);
    await enqueue(ctx.store, 'idle.step', { n: 2 }, 6102);
    expect(await until(async () => applied.length === 2, 5000)).toBe(true);
    stop();
    await outbox.stopped();
    expect(applied).toEqual([1, 2]);
  });

  it('drains past a job another worker still applies: it waits for it, then applies the job of its item queued behind it', async () => {
    // A store of its own: drain waits while any job anywhere runs, and the other tests leave theirs.
    const own = await openTestStore(kind);
    const second = await openStore(own.config);
    try {
      let release = () => {};
      const applied: string[] = [];
      const busy = createOutbox(second);
      busy.register({
        'drain.step': async (payload) => {
          applied.push(`busy:${(payload as { n: number }).n}`);
          await new Promise<void>((resolve) => (release = resolve));
        },
      });
      const draining = createOutbox(own.store);
      draining.register({
        'drain.step': async (payload) => {
          applied.push(`drain:${(payload as { n: number }).n}`);
        },
      });
      await enqueue(own.store, 'drain.step', { n: 1 }, 7001);
      await enqueue(own.store, 'drain.step', { n: 2 }, 7001);
      const first = busy.runOne();
      expect(await until(async () => applied.length === 1, 5000)).toBe(true);
      const drained = draining.drain();
      // The second job waits behind the first, which the other worker holds: drain keeps asking.
      await pause(100);
      expect(applied).toEqual(['busy:1']);
      release();
      await first;
      await drained;
      expect(applied).toEqual(['busy:1', 'drain:2']);
    } finally {
      await second.destroy();
      await own.cleanup();
    }
  }, 20_000);

  it('tells an idle worker when a job may next be claimed: the earliest due pending job, or a second after the earliest lease ends', async () => {
    // A store of its own: the jobs the other tests leave would be due first.
    const own = await openTestStore(kind);
    try {
      expect(await nextDue(own.store)).toBeNull();
      const t = now();
      const job = async (set: { status: 'pending' | 'running' | 'done' | 'failed'; next_at?: number; lease_until?: number }) => {
        const id = await enqueue(own.store, 'due.step', {});
        await own.store.updateTable('job').set(set).where('id', '=', id).execute();
        return id;
      };
      await job({ status: 'pending', next_at: t + 50 });
      const soon = await job({ status: 'pending', next_at: t + 20 });
      await job({ status: 'failed', next_at: t - 100 });
      await job({ status: 'done', next_at: t - 50 });
      expect(await nextDue(own.store)).toBe(t + 20);
      const leases = [await job({ status: 'running', lease_until: t + 9 }), await job({ status: 'running', lease_until: t + 5 })];
      expect(await nextDue(own.store)).toBe(t + 6);
      await own.store
        .updateTable('job')
        .set({ status: 'done' })
        .where('id', 'in', [soon, ...leases])
        .execute();
      expect(await nextDue(own.store)).toBe(t + 50);
    } finally {
      await own.cleanup();
    }
  });

  it('hands back at start only the running jobs whose lease ended, never a live claim of another process', async () => {
    const t = Math.floor(Date.now() / 1000);
    const live = await enqueue(ctx.store, 'requeue.step', {}, 5001);
    const dead = await enqueue(ctx.store, 'requeue.step', {}, 5002);
    await ctx.store
      .updateTable('job')
      .set({ status: 'running', lease_until: t + 60, claimed_by: 'x' })
      .where('id', '=', live)
      .execute();
    await ctx.store
      .updateTable('job')
      .set({ status: 'running', lease_until: t - 1, claimed_by: 'y' })
      .where('id', '=', dead)
      .execute();
    await createOutbox(ctx.store).requeueInterrupted();
    const rows = await ctx.store.selectFrom('job').select(['id', 'status']).where('kind', '=', 'requeue.step').orderBy('id').execute();
    expect(rows).toEqual([
      { id: live, status: 'running' },
      { id: dead, status: 'pending' },
    ]);
  });
});

describePostgres('the outbox worker on PostgreSQL', () => {
  let ctx: Awaited<ReturnType<typeof openTestStore>>;
  beforeAll(async () => {
    ctx = await openTestStore('postgres');
  });
  afterAll(() => ctx.cleanup());

  it('sleeps only until a job waiting out its back-off is due, not for the whole fallback poll', async () => {
    const signals = createSignals(ctx.store, ctx.config.databaseUrl);
    await signals.ready();
    const outbox = createOutbox(ctx.store, { signals, fallbackMs: 60_000 });
    let applied = false;
    outbox.register({
      'due.step': async () => {
        applied = true;
      },
    });
    // Due in two seconds: no NOTIFY comes when that time does, only the worker's own sleep.
    const id = await enqueue(ctx.store, 'due.step', {}, 6101);
    await ctx.store
      .updateTable('job')
      .set({ next_at: now() + 2 })
      .where('id', '=', id)
      .execute();
    const stop = outbox.start();
    expect(await until(async () => applied, 10_000)).toBe(true);
    stop();
    await outbox.stopped();
    await signals.close();
  });

  it('is woken by a job committed by another process without waiting for its poll', async () => {
    const signals = createSignals(ctx.store, ctx.config.databaseUrl);
    const outbox = createOutbox(ctx.store, { signals, fallbackMs: 60_000 });
    let appliedAt = 0;
    outbox.register({
      'wake.step': async () => {
        appliedAt = Date.now();
      },
    });
    const stop = outbox.start();
    await signals.ready();
    await pause(300); // the worker's first look finds nothing and goes to sleep for a minute
    const writer = await openStore(ctx.config);
    const committedAt = Date.now();
    await enqueue(writer, 'wake.step', {}, 6001);
    expect(await until(async () => appliedAt > 0, 3000)).toBe(true);
    expect(appliedAt - committedAt).toBeLessThan(1000);
    stop();
    await outbox.stopped();
    await signals.close();
    await writer.destroy();
  });
});
