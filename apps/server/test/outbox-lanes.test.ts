import { afterAll, beforeAll, expect, it } from 'vitest';
import { REBUILD_JOB } from '../src/modules/backups/rebuild.ts';
import { DNSSEC_SIGN } from '../src/modules/dns/dnssec/jobs.ts';
import { APPLY_ZONE } from '../src/modules/dns/jobs.ts';
import { REGISTRY_CHANGE } from '../src/modules/domain/changes.ts';
import { TERMINATE } from '../src/modules/operator/termination.ts';
import { JOB } from '../src/modules/service/jobs.ts';
import { MOVE_JOB } from '../src/modules/service/move.ts';
import { ISSUE_JOB } from '../src/modules/sites/acme/issue.ts';
import { INSTALL_JOB } from '../src/modules/sites/installer/job.ts';
import { APPLY_JOB } from '../src/modules/sites/state.ts';
import { claimJobs } from '../src/outbox/claim.ts';
import { laneRuleOf } from '../src/outbox/lanes.ts';
import { createOutbox, enqueue, type Outbox } from '../src/outbox/outbox.ts';
import { createRuntime } from '../src/runtime.ts';
import { now } from '../src/store/db.ts';
import { describeStores, openTestStore } from './stores.ts';

/**
 * The lanes of one item's jobs (decision 055), through the outbox's own claim on each store: the
 * real job kinds with handlers of the test's, so what runs and in which order is what the claim
 * allows. An item of its own per test: ids 6001 and up.
 */
describeStores('the lanes of an item’s jobs on %s', (kind) => {
  let ctx: Awaited<ReturnType<typeof openTestStore>>;
  let outbox: Outbox;
  const ran: string[] = [];
  /** Kinds whose handler fails, as a backend that is down would. */
  const failing = new Set<string>();
  beforeAll(async () => {
    ctx = await openTestStore(kind);
    outbox = createOutbox(ctx.store);
    const kinds = [REGISTRY_CHANGE, APPLY_ZONE, DNSSEC_SIGN, ISSUE_JOB, APPLY_JOB, INSTALL_JOB, JOB.mailbox, JOB.alias, JOB.database];
    outbox.register(
      Object.fromEntries(
        kinds.map((k) => [
          k,
          async (payload: unknown) => {
            if (failing.has(k)) throw new Error(`${k} is down`);
            ran.push(`${k} ${(payload as { n: number }).n}`);
          },
        ]),
      ),
    );
  });
  afterAll(() => ctx.cleanup());

  const status = async (id: number) =>
    (await ctx.store.selectFrom('job').select(['status', 'attempts']).where('id', '=', id).executeTakeFirstOrThrow()).status;
  const later = (id: number) =>
    ctx.store
      .updateTable('job')
      .set({ next_at: now() + 3600 })
      .where('id', '=', id)
      .execute();
  const finish = (id: number) => ctx.store.updateTable('job').set({ status: 'done' }).where('id', '=', id).execute();
  /** What one claim takes for a worker (the panel's, or one node's), given back at once: the claim's verdict alone. */
  const claimable = async (node: number | null = null) => {
    const jobs = await claimJobs(ctx.store, 30, 'lanes-test', now(), 20, node);
    if (jobs.length)
      await ctx.store
        .updateTable('job')
        .set({ status: 'pending', lease_until: null, claimed_by: null })
        .where(
          'id',
          'in',
          jobs.map((j) => j.id),
        )
        .execute();
    return jobs.map((j) => j.id);
  };

  it('applies an item’s registry change at once while its certificate order backs off after a failure', async () => {
    ran.length = 0;
    failing.add(ISSUE_JOB);
    const order = await enqueue(ctx.store, ISSUE_JOB, { n: 1 }, 6001);
    const change = await enqueue(ctx.store, REGISTRY_CHANGE, { n: 2 }, 6001, { on: 'panel' });
    expect((await outbox.runOne())?.id).toBe(order);
    await later(order);
    await outbox.drain();
    expect(ran).toEqual([`${REGISTRY_CHANGE} 2`]);
    expect(await status(change)).toBe('done');
    expect(await status(order)).toBe('pending');
    failing.delete(ISSUE_JOB);
    await finish(order);
  });

  it('applies an item’s registry change while its certificate order runs, and its zone change too', async () => {
    let release = () => {};
    const worker = createOutbox(ctx.store, { concurrency: 4 });
    const seen: string[] = [];
    worker.register({
      [ISSUE_JOB]: () => new Promise<void>((resolve) => (release = resolve)),
      [REGISTRY_CHANGE]: async () => void seen.push('registry'),
      [APPLY_ZONE]: async () => void seen.push('zone'),
    });
    const order = await enqueue(ctx.store, ISSUE_JOB, {}, 6002);
    const change = await enqueue(ctx.store, REGISTRY_CHANGE, {}, 6002, { on: 'panel' });
    const zone = await enqueue(ctx.store, APPLY_ZONE, {}, 6002, { on: 'panel' });
    const stop = worker.start(10);
    try {
      await expect
        .poll(async () => [await status(order), await status(change), await status(zone)], { timeout: 10_000 })
        .toEqual(['running', 'done', 'done']);
    } finally {
      release();
      stop();
      await worker.stopped();
    }
    expect(seen.sort()).toEqual(['registry', 'zone']);
  });

  it('keeps the jobs of one lane in commit order: a later zone change and a later alias wait for the failing one before them', async () => {
    ran.length = 0;
    failing.add(APPLY_ZONE);
    failing.add(JOB.mailbox);
    const zone = await enqueue(ctx.store, APPLY_ZONE, { n: 1 }, 6003, { on: 'panel' });
    const mailbox = await enqueue(ctx.store, JOB.mailbox, { n: 2 }, 6003);
    const sign = await enqueue(ctx.store, DNSSEC_SIGN, { n: 3 }, 6003, { on: 'panel' });
    const alias = await enqueue(ctx.store, JOB.alias, { n: 4 }, 6003);
    await outbox.drain(2);
    await later(zone);
    await later(mailbox);
    await outbox.drain();
    expect(ran).toEqual([]);
    expect([await status(sign), await status(alias)]).toEqual(['pending', 'pending']);
    failing.clear();
    await ctx.store.updateTable('job').set({ next_at: now() }).where('id', 'in', [zone, mailbox]).execute();
    await outbox.drain();
    expect(ran.filter((r) => r.startsWith('dns.'))).toEqual([`${APPLY_ZONE} 1`, `${DNSSEC_SIGN} 3`]);
    expect(ran.filter((r) => r.startsWith('service.'))).toEqual([`${JOB.mailbox} 2`, `${JOB.alias} 4`]);
  });

  it('orders a certificate only after the item’s earlier zone and host changes, and holds up neither kind after it', async () => {
    ran.length = 0;
    failing.add(APPLY_ZONE);
    const zone = await enqueue(ctx.store, APPLY_ZONE, { n: 1 }, 6004, { on: 'panel' });
    await outbox.runOne();
    await later(zone);
    const order = await enqueue(ctx.store, ISSUE_JOB, { n: 2 }, 6004);
    const host = await enqueue(ctx.store, APPLY_JOB, { n: 3 }, 6004);
    await outbox.drain();
    expect(ran).toEqual([`${APPLY_JOB} 3`]);
    expect(await status(order)).toBe('pending');
    failing.delete(APPLY_ZONE);
    await ctx.store.updateTable('job').set({ next_at: now() }).where('id', '=', zone).execute();
    await outbox.drain();
    expect(ran).toEqual([`${APPLY_JOB} 3`, `${APPLY_ZONE} 1`, `${ISSUE_JOB} 2`]);
    expect(await status(host)).toBe('done');
  });

  it('installs an application only after the databases queued before it', async () => {
    ran.length = 0;
    failing.add(JOB.database);
    const database = await enqueue(ctx.store, JOB.database, { n: 1 }, 6005);
    const install = await enqueue(ctx.store, INSTALL_JOB, { n: 2 }, 6005);
    await outbox.runOne();
    await later(database);
    await outbox.drain();
    expect(ran).toEqual([]);
    failing.delete(JOB.database);
    await ctx.store.updateTable('job').set({ next_at: now() }).where('id', '=', database).execute();
    await outbox.drain();
    expect(ran).toEqual([`${JOB.database} 1`, `${INSTALL_JOB} 2`]);
    expect(await status(install)).toBe('done');
  });

  it.each([
    ['a service move', MOVE_JOB],
    ['a termination step', TERMINATE.sites],
  ])(
    'holds the whole item for %s: every lane queued before applies first and every lane after waits, whichever node applies it',
    async (_name, barrier) => {
      const item = barrier === MOVE_JOB ? 6006 : 6007;
      const node = 9000 + item;
      // Before it: a registry change and a mailbox on the panel; after it: a zone change (the panel's) and a mailbox (the node's).
      const change = await enqueue(ctx.store, REGISTRY_CHANGE, {}, item, { on: 'panel' });
      const mailbox = await enqueue(ctx.store, JOB.mailbox, {}, item);
      const held = await enqueue(ctx.store, barrier, {}, item, { nodeId: node });
      const zone = await enqueue(ctx.store, APPLY_ZONE, {}, item, { on: 'panel' });
      const alias = await enqueue(ctx.store, JOB.alias, {}, item, { nodeId: node });
      const mine = async (worker: number | null) =>
        (await claimable(worker)).filter((id) => [change, mailbox, held, zone, alias].includes(id));
      expect(await mine(null)).toEqual([change, mailbox]);
      expect(await mine(node)).toEqual([]);
      await finish(change);
      expect(await mine(node)).toEqual([]);
      await finish(mailbox);
      expect(await mine(node)).toEqual([held]);
      const [running] = await claimJobs(ctx.store, 30, 'lanes-test', now(), 1, node);
      expect(running?.id).toBe(held);
      expect(await mine(null)).toEqual([]);
      expect(await mine(node)).toEqual([]);
      await finish(held);
      expect(await mine(null)).toEqual([zone]);
      expect(await mine(node)).toEqual([alias]);
    },
  );

  it('claims the heads of two lanes of one item in one claim, and one job of a lane, never two', async () => {
    const change = await enqueue(ctx.store, REGISTRY_CHANGE, {}, 6008, { on: 'panel' });
    const second = await enqueue(ctx.store, REGISTRY_CHANGE, {}, 6008, { on: 'panel' });
    const zone = await enqueue(ctx.store, APPLY_ZONE, {}, 6008, { on: 'panel' });
    const taken = (await claimJobs(ctx.store, 30, 'lanes-test', now(), 20, null)).map((j) => j.id).filter((id) => id >= change);
    expect(taken).toEqual([change, zone]);
    expect((await claimJobs(ctx.store, 30, 'lanes-test', now(), 20, null)).map((j) => j.id)).not.toContain(second);
  });
});

it('gives every job kind the runtime applies lanes of its own, so none holds its whole item by default but a move and a termination', async () => {
  const opened = await openTestStore('sqlite');
  try {
    const runtime = createRuntime(opened.config, opened.store);
    const kinds = runtime.outbox.kinds();
    expect(kinds.length).toBeGreaterThan(10);
    expect(kinds.filter((k) => laneRuleOf(k) === undefined)).toEqual([]);
    expect(kinds.filter((k) => laneRuleOf(k)?.holds === 'item').sort()).toEqual(
      [MOVE_JOB, REBUILD_JOB, ...Object.values(TERMINATE)].sort(),
    );
  } finally {
    await opened.cleanup();
  }
});
