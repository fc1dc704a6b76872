import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestRegistry } from '../../../registry/src/server.ts';
import { createSession, SESSION_COOKIE } from '../../src/modules/session/sessions.ts';
import { createRuntime } from '../../src/runtime.ts';
import { runAdmin } from '../admin.ts';
import { type Account, createAccount } from '../fixtures.ts';
import { certificateFiles, eppDriverConfig, startTestRegistry } from '../registry-epp/harness.ts';
import { type ServerProcess, startServer } from '../server-process.ts';
import { describeStores, openTestStore } from '../stores.ts';

const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for `check` to hold, 20 s at most (a bound, not a timing the test asserts). */
async function until(what: string, check: () => Promise<boolean> | boolean) {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await sleep(50);
  }
}

/**
 * Issue 44.4: the panel killed with SIGKILL after the registry applied a renewal and before the
 * ledger knew of it. The real server runs the epp driver against the test registry; the renewal is
 * held at the registry until the test holds the store's write lock, so that once the registry has
 * applied it the panel cannot record anything before the kill. Started again, the renewal's job
 * runs again, finds the renewal made, and bills it once; reconcile --repair then bills nothing more.
 */
describeStores('a renewal applied at the registry and the panel killed before the ledger on %s', (kind) => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let acc: Account;
  let registry: TestRegistry;
  let server: ServerProcess | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    const certs = certificateFiles();
    registry = await startTestRegistry(certs);
    const driver = eppDriverConfig(registry, certs);
    opened = await openTestStore(kind, { 'drivers.registry': driver });
    acc = await createAccount(opened.store, { users: { w: 'all=write' }, items: [{ reference: 'vive.es', domain: true }] });
    const configFile = path.join(opened.config.dataDir, 'atalaya.config.json');
    writeFileSync(configFile, JSON.stringify({ drivers: { registry: driver } }));
    env = {
      ATALAYA_CONFIG: configFile,
      ATALAYA_DATA_DIR: opened.config.dataDir,
      DATABASE_URL: opened.config.databaseUrl ?? '',
      // The killed process's job is taken over once its lease ends: short here.
      ATALAYA_JOB_LEASE_SECONDS: '3',
    };
  });
  afterAll(async () => {
    await server?.kill();
    await registry.close();
    await opened.cleanup();
  });

  it('bills the renewal exactly once and stores the registry’s expiry after SIGKILL and a restart', { timeout: 90_000 }, async () => {
    const { store } = opened;
    const id = acc.items['vive.es'];
    const cookie = `${SESSION_COOKIE}=${await createSession(store, acc.users.w)}`;
    const call = (port: number, method: 'GET' | 'POST', url: string, fields?: Record<string, string>) =>
      fetch(`http://127.0.0.1:${port}/p247${url}`, {
        method,
        headers: { cookie, 'x-dd-request': '1', 'content-type': 'application/x-www-form-urlencoded' },
        body: fields ? new URLSearchParams(fields) : undefined,
      });

    server = await startServer(env);
    // Registered as a writer does (decision 051), by the server's own worker.
    expect((await call(server.port, 'POST', `/domain/${id}/register/`)).status).toBe(200);
    await until('the registration to reach the registry', () => registry.state.data.domains['vive.es'] !== undefined);
    const before = Date.parse(registry.state.data.domains['vive.es'].exDate) / 1000;

    registry.setFaults({ hold: ['domain:renew'] });
    const renewal = call(server.port, 'POST', `/domain/${id}/renew/`, { years: '1', curExpDate: day(before) }).catch(() => null);
    await until('the renewal to reach the registry', () => registry.heldCount() === 1);

    // The store's write lock, held by the test: the panel can read, but records nothing more.
    let unlock = () => {};
    const locked = new Promise<void>((resolve) => {
      unlock = resolve;
    });
    let holding = () => {};
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const lock = store
      .transaction()
      .execute(async (trx) => {
        if (store.kind === 'sqlite') await trx.updateTable('domain').set({ updated_at: 1 }).where('item_id', '=', id).execute();
        else await sql`LOCK TABLE domain, registry_change, billing_event IN EXCLUSIVE MODE`.execute(trx);
        holding();
        await locked;
        throw new Error('rolled back');
      })
      .catch(() => {});
    await held;
    registry.clearFaults(); // lets the held renewal run: the registry applies it and answers
    await until('the registry to apply the renewal', () => Date.parse(registry.state.data.domains['vive.es'].exDate) / 1000 > before);
    await server.kill();
    server = undefined;
    unlock();
    await lock;
    await renewal;

    // The registry renewed; the panel recorded nothing of it.
    const renewed = Math.floor(Date.parse(registry.state.data.domains['vive.es'].exDate) / 1000);
    expect(day(renewed)).toBe(`${Number(day(before).slice(0, 4)) + 1}${day(before).slice(4)}`);
    // The renewals only: the registration before them has its own line (decision 051).
    const ledger = () => store.selectFrom('billing_event').selectAll().where('item_id', '=', id).where('action', '=', 'renew').execute();
    expect(await ledger()).toEqual([]);
    const change = () =>
      store
        .selectFrom('registry_change')
        .select(['state'])
        .where('item_id', '=', id)
        .where('action', '=', 'renew')
        .executeTakeFirstOrThrow();
    expect((await change()).state).toBe('queued');

    // Started again: the job runs again, finds the renewal made (the registry refuses the old
    // curExpDate, its expiry is the one asked for) and settles it, billed once.
    server = await startServer(env);
    await until('the renewal to settle', async () => (await change()).state !== 'queued');
    expect((await change()).state).toBe('done');
    expect((await ledger()).map((l) => [l.action, l.years, l.from_date, day(Number(l.expire_at))])).toEqual([
      ['renew', 1, day(before), day(renewed)],
    ]);
    const stored = await store.selectFrom('domain').select('expire_at').where('item_id', '=', id).executeTakeFirstOrThrow();
    expect(Number(stored.expire_at)).toBe(renewed);
    await server.kill();
    server = undefined;

    // reconcile --repair finds nothing to bill: the line is there.
    const runtime = createRuntime(opened.config, store);
    try {
      const printed = await runAdmin(runtime, 'reconcile', [], { repair: true });
      expect(printed).not.toContain('vive.es');
    } finally {
      await runtime.close();
    }
    expect(await ledger()).toHaveLength(1);
  });
});
