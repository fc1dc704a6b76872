import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { createNoticeHub } from '../src/modules/account/live.ts';
import { grant } from '../src/modules/provisioning/accounts.ts';
import { openStore, type Store } from '../src/store/db.ts';
import { runExclusive } from '../src/store/exclusive.ts';
import { createSignals } from '../src/store/signals.ts';
import { createAccount } from './fixtures.ts';
import { openTestStore } from './stores.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(process.env.ATALAYA_TEST_PG)('state shared by several processes on PostgreSQL', () => {
  let ctx: Awaited<ReturnType<typeof openTestStore>>;
  /** A second pool on the same database, as another process (the CLI, a second server) has. */
  let other: Store;
  beforeAll(async () => {
    ctx = await openTestStore('postgres');
    other = await openStore(ctx.config);
  });
  afterAll(async () => {
    await other.destroy();
    await ctx.cleanup();
  });

  it('pushes a menu refresh for a grant written by another process at once, not at the next poll', async () => {
    const acc = await createAccount(ctx.store, { users: { ana: 'domain=read' }, items: [{ reference: 'one.es', domain: true }] });
    const signals = createSignals(ctx.store, ctx.config.databaseUrl);
    // A hub whose poll would take a minute: only the NOTIFY can deliver within the test.
    const hub = createNoticeHub(ctx.store, ctx.config, () => {}, 60_000, signals);
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => server.on('listening', resolve));
    const serverSide = new Promise<WebSocket>((resolve) => server.on('connection', resolve));
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as { port: number }).port}/`);
    const menu = new Promise<number>((resolve) => client.on('message', () => resolve(Date.now())));
    await hub.add({ userId: acc.users.ana, sessionId: 'none', socket: await serverSide });
    const granted = Date.now();
    await grant(other, acc.realm, 'ana', 'one.es', { domain: 'write' });
    const pushed = await Promise.race([menu, pause(3000).then(() => 0)]);
    expect(pushed).toBeGreaterThan(0);
    expect(pushed - granted).toBeLessThan(1000);
    hub.close();
    client.close();
    server.close();
    await signals.close();
  });

  it('runs an exclusive clean-up in one process at a time: a second one meanwhile skips it', async () => {
    const key = 7_414_999;
    const ran: string[] = [];
    const work = (name: string) => async () => {
      ran.push(name);
      await pause(300);
    };
    const results = await Promise.all([runExclusive(ctx.store, key, work('first')), runExclusive(other, key, work('second'))]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(ran).toHaveLength(1);
    expect(await runExclusive(other, key, work('later'))).toBe(true);
  });
});
