import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { enqueue } from '../../src/outbox/outbox.ts';
import { openStore, type Store } from '../../src/store/db.ts';
import { freePort, missingBinaries } from '../backends/harness/common.ts';
import { skipReason } from '../skip.ts';
import { FORM, freshDatabase, NGINX, type ServerProcess, signIn, startBalancer, startServer } from './harness.ts';
import { PROBE_JOB, queueProbes } from './probe.ts';

const CLI = path.resolve(import.meta.dirname, '../../src/cli/main.ts');
const ADMIN = process.env.ATALAYA_TEST_PG;
const skip = ADMIN ? missingBinaries(NGINX) : skipReason('no PostgreSQL (ATALAYA_TEST_PG) for the multi-process test');
const LEASE_SECONDS = 3;
const PASSWORD = 'demo-password-scale';
const until = async (check: () => Promise<boolean>, ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
};

/**
 * Decision 014 as deployed: two real server processes on one fresh PostgreSQL database behind a real
 * nginx configured from docs/deploy.md, acting as one panel.
 */
describe.skipIf(skip)('two server processes behind nginx on one PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let servers: ServerProcess[] = [];
  let balancer: Awaited<ReturnType<typeof startBalancer>>;
  let store: Store;
  let base: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    db = await freshDatabase(ADMIN!);
    // The servers must know the public origin (the balancer's port) before they start.
    const nginxPort = await freePort();
    env = {
      DATABASE_URL: db.url,
      ATALAYA_SECRET_KEY: randomBytes(32).toString('base64'),
      ATALAYA_DEMO_PASSWORD: PASSWORD,
      ATALAYA_TRUST_PROXY: '127.0.0.1',
      ATALAYA_JOB_LEASE_SECONDS: String(LEASE_SECONDS),
      ATALAYA_PUBLIC_ORIGIN: `http://127.0.0.1:${nginxPort}`,
    };
    // The first process migrates and seeds the demo; the second finds both done.
    servers = [await startServer(env)];
    servers.push(await startServer(env));
    balancer = await startBalancer(
      servers.map((s) => s.port),
      nginxPort,
    );
    base = `http://127.0.0.1:${balancer.port}`;
    store = await openStore({ dataDir: '/nonexistent', databaseUrl: db.url });
  }, 90_000);

  afterAll(async () => {
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
    await Promise.all(
      servers.map(
        (s) =>
          new Promise((resolve) =>
            s.child.exitCode !== null || s.child.signalCode !== null ? resolve(null) : s.child.once('exit', resolve),
          ),
      ),
    );
    await balancer?.stop();
    await store?.destroy();
    await db?.drop();
  }, 30_000);

  it('honours a session made through one process on the other, with requests alternating between them', async () => {
    const { status, cookie } = await signIn(base, 'example.com', 'demo', PASSWORD);
    expect(status).toBe(200);
    const before = servers.map((s) => s.served('/p247/user/info/'));
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${base}/p247/user/info/`, { method: 'POST', headers: { ...FORM, cookie: cookie! } });
      expect(res.status).toBe(200);
    }
    // Both processes served some (their request lines are written asynchronously: give them a moment),
    // and each honours the session directly too.
    const bothServed = () => servers.every((s, i) => s.served('/p247/user/info/') - before[i] > 0);
    for (let i = 0; i < 50 && !bothServed(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(bothServed()).toBe(true);
    for (const s of servers) {
      const direct = await fetch(`http://127.0.0.1:${s.port}/p247/user/info/`, { method: 'POST', headers: { ...FORM, cookie: cookie! } });
      expect(direct.status).toBe(200);
    }
  });

  it('counts failed sign-ins made on both processes together and locks the account on either, through nginx too', async () => {
    // A sign-in is two requests (captcha, then login), so round-robin would send every login to the
    // same process: the failures go to each process in turn directly.
    for (let i = 0; i < 5; i++) {
      const direct = `http://127.0.0.1:${servers[i % 2].port}`;
      expect((await signIn(direct, 'example.com', 'viewer', 'not-the-password')).status).toBe(401);
    }
    for (const s of servers) expect((await signIn(`http://127.0.0.1:${s.port}`, 'example.com', 'viewer', PASSWORD)).status).toBe(429);
    expect((await signIn(base, 'example.com', 'viewer', PASSWORD)).status).toBe(429);
  });

  it('pushes a menu refresh within a second to sockets held by each process, through nginx too, when the CLI grants a permission', async () => {
    const { cookie } = await signIn(base, 'example.com', 'demo', PASSWORD);
    const urls = [`ws://127.0.0.1:${balancer.port}/p247/ws`, ...servers.map((s) => `ws://127.0.0.1:${s.port}/p247/ws`)];
    const sockets = urls.map((url) => {
      const socket = new WebSocket(url, { headers: { cookie: cookie!, origin: env.ATALAYA_PUBLIC_ORIGIN } });
      const messages: { type: string; at: number }[] = [];
      socket.on('message', (data) => messages.push({ type: JSON.parse(String(data)).type, at: Date.now() }));
      return { socket, messages };
    });
    for (const { messages } of sockets) expect(await until(async () => messages.some((m) => m.type === 'ready'), 10_000)).toBe(true);
    await promisify(execFile)(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', CLI, 'grant', 'example.com', 'demo', 'example.com', 'domain=write'],
      { env: { ...process.env, ...env, ATALAYA_DATA_DIR: path.join(balancer.conf, '..') } },
    );
    const granted = Date.now();
    for (const { messages } of sockets) {
      expect(await until(async () => messages.some((m) => m.type === 'menu'), 3000)).toBe(true);
      expect(messages.find((m) => m.type === 'menu')!.at - granted).toBeLessThan(1000);
    }
    for (const { socket } of sockets) socket.close();
  }, 60_000);

  it("applies 1,000 jobs of 50 items on both workers, each item's in commit order, none twice", async () => {
    await queueProbes(store, 50, 20);
    const left = () => store.selectFrom('job').select('id').where('kind', '=', PROBE_JOB).where('status', '!=', 'done').execute();
    expect(await until(async () => (await left()).length === 0, 45_000)).toBe(true);
    const applied = (await store.selectFrom('audit_event').select('detail').where('action', '=', PROBE_JOB).orderBy('id').execute()).map(
      (r) => JSON.parse(r.detail) as { item: number; seq: number; pid: number },
    );
    expect(applied).toHaveLength(1000);
    for (let item = 1; item <= 50; item++) expect(applied.filter((a) => a.item === item).map((a) => a.seq)).toEqual([...Array(20).keys()]);
    expect(new Set(applied.map((a) => a.pid))).toEqual(new Set(servers.map((s) => s.child.pid)));
  }, 60_000);

  it('loses no acknowledged write when one process is killed under load, and the survivor finishes its jobs within the lease', async () => {
    const { cookie } = await signIn(base, 'example.com', 'demo', PASSWORD);
    const item = await store.selectFrom('item').select('id').where('reference', '=', 'example.com').executeTakeFirstOrThrow();
    // 300 jobs of 60 ms on two workers of 4: about 2.3 s of work, so both still hold jobs at the kill
    // (at 20 ms each, a fast run had finished them all before it and nothing was left to take over).
    for (let seq = 0; seq < 10; seq++) for (let n = 101; n <= 130; n++) await enqueue(store, PROBE_JOB, { item: n, seq, ms: 60 }, -n);
    const acknowledged: string[] = [];
    let writing = true;
    let sent = 0;
    const writer = async () => {
      while (writing) {
        const name = `w${sent++}`;
        const res = await fetch(`${base}/p247/service/${item.id}/alias/create/`, {
          method: 'POST',
          headers: { ...FORM, cookie: cookie! },
          body: new URLSearchParams({ name, target: 'dest@example.org' }).toString(),
        }).catch(() => null);
        if (res?.status === 200) acknowledged.push(name);
      }
    };
    const writers = [writer(), writer(), writer()];
    await new Promise((r) => setTimeout(r, 800));
    const [victim, survivor] = servers;
    victim.child.kill('SIGKILL');
    const killedAt = Date.now();
    await new Promise((r) => setTimeout(r, 1500));
    writing = false;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThan(10);
    const stored = new Set((await store.selectFrom('mail_alias').select('name').execute()).map((r) => r.name));
    expect(acknowledged.filter((name) => !stored.has(name))).toEqual([]);
    // Every job, the killed process's included, ends done within the lease (plus the work itself).
    const unfinished = () => store.selectFrom('job').select('id').where('status', 'in', ['pending', 'running']).execute();
    expect(await until(async () => (await unfinished()).length === 0, LEASE_SECONDS * 1000 + 8000)).toBe(true);
    const finishedIn = Date.now() - killedAt;
    const takenOver = await store.selectFrom('job').select('id').where('kind', '=', PROBE_JOB).where('attempts', '>', 0).execute();
    expect(takenOver.length).toBeGreaterThan(0);
    const applied = (await store.selectFrom('audit_event').select('detail').where('action', '=', PROBE_JOB).orderBy('id').execute())
      .map((r) => JSON.parse(r.detail) as { item: number; seq: number; pid: number })
      .filter((a) => a.item > 100);
    for (let n = 101; n <= 130; n++) {
      const firsts = [...new Set(applied.filter((a) => a.item === n).map((a) => a.seq))];
      expect(firsts).toEqual([...Array(10).keys()]);
    }
    expect(survivor.child.exitCode).toBeNull();
    console.log(
      `scale: ${acknowledged.length} acknowledged writes of ${sent}; all jobs done ${finishedIn} ms after the kill; ${takenOver.length} taken over`,
    );
  }, 60_000);
});
