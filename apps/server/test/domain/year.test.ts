import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { TestRegistry } from '../../../registry/src/server.ts';
import { renewDue } from '../../src/modules/domain/auto-renew.ts';
import { createAccount, registerDomains, send } from '../fixtures.ts';
import { certificateFiles, eppDriverConfig, startTestRegistry } from '../registry-epp/harness.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { whileApplying } from './helpers.ts';

const DAY = 86_400;
/**
 * A hundred domains on SQLite; on PostgreSQL a quarter of them, which still pass through every
 * state: what the store changes is how the rows are read and written, not the registry's story,
 * and a hundred would double the suite's longest file.
 */
const COUNT = { sqlite: 100, postgres: 25 } as const;
const STEP_DAYS = 5;
/** Expiries spread over the year's first ten months, one every three days. */
const FIRST_DAY = (i: number) => 5 + 3 * i;
// A year and a month in five-day steps: the last expiry (day 302) reaches its purge (day 382).
const STEPS = 78;
/** Every other domain renews itself; of those left to expire, every other one is restored from redemption. */
const auto = (i: number) => i % 2 === 0;
const restored = (i: number) => i % 4 === 1;

/** The state the panel should show for what the test registry holds, and until when (Unix seconds). */
function registryView(registry: TestRegistry, name: string) {
  const d = registry.state.data.domains[name];
  if (!d) return null;
  const exDate = Math.floor(Date.parse(d.exDate) / 1000);
  const deleted = d.deletedAt ? Math.floor(Date.parse(d.deletedAt) / 1000) : 0;
  switch (d.rgp) {
    case 'autoRenewPeriod':
      return { expireTS: exDate, expiry: { state: 'grace', until: exDate + 45 * DAY } };
    case 'redemptionPeriod':
    case 'pendingRestore':
      return { expireTS: exDate, expiry: { state: 'redemption', until: deleted + 30 * DAY } };
    case 'pendingDelete':
      return { expireTS: exDate, expiry: { state: 'pendingDelete', until: deleted + 35 * DAY } };
    default:
      return { expireTS: exDate, expiry: { state: 'active', until: exDate } };
  }
}

// The panel and the test registry share one clock (Date), moved a year forward in steps: as in
// production, where both follow real time. Only Date is faked; timers and sockets run as usual.
describeStores('a simulated year of %s domains on the epp driver', (kind) => {
  const names = Array.from({ length: COUNT[kind] }, (_, i) => `year${i}.test`);
  let ctx: TestContext;
  let registry: TestRegistry;
  let account: Awaited<ReturnType<typeof createAccount>>;
  const start = Date.now();

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    const certs = certificateFiles();
    registry = await startTestRegistry(certs);
    ctx = await openTestApp(kind, {
      'drivers.registry': eppDriverConfig(registry, certs),
    });
    account = await createAccount(ctx.store, { users: { w: 'all=write' }, items: names.map((reference) => ({ reference, domain: true })) });
    const headers = await account.as('w');
    // Registered as the operator does (decision 051); a read only reads.
    await registerDomains(ctx.app, account);
    for (const [i, name] of names.entries()) {
      const id = account.items[name];
      expect((await send(ctx.app, 'GET', `/domain/${id}/`, headers)).status).toBe(200);
      // Expiries spread over the first months of the year.
      const exDate = Math.floor(start / 1000) + FIRST_DAY(i) * DAY;
      registry.state.data.domains[name].exDate = new Date(exDate * 1000).toISOString();
      await ctx.store
        .updateTable('domain')
        .set({ expire_at: exDate, renewal_mode: auto(i) ? 'auto' : 'expire', updated_at: exDate })
        .where('item_id', '=', id)
        .execute();
    }
  }, 300_000);
  afterAll(async () => {
    await ctx?.close();
    await registry?.close();
    vi.useRealTimers();
  });

  it('renews, lapses, restores and deletes as the clock moves, the panel showing what the registry holds after every step, each renewal billed once', {
    timeout: 1_200_000,
  }, async () => {
    const wall = performance.now();
    const restoredAt = new Map<string, number>();
    const purgedAt = new Map<string, number>();
    const seen = new Map<string, Set<string>>(names.map((n) => [n, new Set()]));
    for (let step = 1; step <= STEPS; step++) {
      vi.setSystemTime(start + step * STEP_DAYS * DAY * 1000);
      registry.tick();
      await renewDue(ctx.app.runtime);
      await ctx.app.runtime.outbox.drain();
      const headers = await account.as('w');
      for (const [i, name] of names.entries()) {
        const url = `/domain/${account.items[name]}/`;
        if (!registryView(registry, name)) {
          // Purged by the registry: the panel says so, and reading it does not register it again.
          if (!purgedAt.has(name)) purgedAt.set(name, step);
          const purged = (await send(ctx.app, 'GET', url, headers)).body.data.domain;
          expect({ name, step, expiry: purged.expiry }).toEqual({ name, step, expiry: { state: 'purged', until: 0 } });
          expect(registry.state.data.domains[name], name).toBeUndefined();
          continue;
        }
        let shown = (await send(ctx.app, 'GET', url, headers)).body.data.domain;
        seen.get(name)?.add(shown.expiry.state);
        if (restored(i) && shown.expiry.state === 'redemption' && !restoredAt.has(name)) {
          const res = await whileApplying(
            ctx.app.runtime.outbox,
            send(ctx.app, 'POST', `/domain/${account.items[name]}/restore/`, headers, {}),
          );
          expect(res.status, name).toBe(200);
          restoredAt.set(name, step);
          shown = res.body.data.domain;
        }
        const now = registryView(registry, name);
        expect({ name, step, expireTS: shown.expireTS, expiry: shown.expiry }).toEqual({ name, step, ...now });
        seen.get(name)?.add(shown.expiry.state);
      }
    }
    const ledger = await ctx.store.selectFrom('billing_event').selectAll().orderBy('id').execute();
    for (const [i, name] of names.entries()) {
      const events = ledger.filter((e) => e.domain === name);
      const renewals = events.filter((e) => e.action === 'renew');
      const first = Math.floor(start / 1000) + FIRST_DAY(i) * DAY;
      const day = (s: number) => new Date(s * 1000).toISOString().slice(0, 10);
      const plusYears = (s: number, n: number) => {
        const d = new Date(s * 1000);
        d.setUTCFullYear(d.getUTCFullYear() + n);
        return Math.floor(d.getTime() / 1000);
      };
      if (auto(i)) {
        // Renewed 30 days before each expiry that fell within the year, from that expiry, once each.
        const due = [0, 1].filter((n) => plusYears(first, n) - 30 * DAY <= Math.floor(start / 1000) + STEPS * STEP_DAYS * DAY);
        expect(
          renewals.map((e) => e.from_date),
          name,
        ).toEqual(due.map((n) => day(plusYears(first, n))));
        expect([...(seen.get(name) ?? [])], name).toEqual(['active']);
        expect(registry.state.data.domains[name].exDate.slice(0, 10)).toBe(day(plusYears(first, due.length)));
      } else {
        expect(renewals, name).toEqual([]);
        expect(seen.get(name)?.has('grace'), name).toBe(true);
        expect(seen.get(name)?.has('redemption'), name).toBe(true);
        if (restored(i)) {
          expect(
            events.filter((e) => e.action === 'restore').map((e) => e.from_date),
            name,
          ).toEqual([day(first)]);
        } else {
          expect(seen.get(name)?.has('pendingDelete'), name).toBe(true);
          expect(purgedAt.has(name), name).toBe(true);
        }
      }
    }
    const renewalsBilled = ledger.filter((e) => e.action === 'renew').length;
    const distinct = new Set(ledger.filter((e) => e.action === 'renew').map((e) => `${e.domain} ${e.from_date}`)).size;
    expect(renewalsBilled).toBe(distinct);
    expect(restoredAt.size).toBe(names.filter((_, i) => restored(i)).length);
    expect(purgedAt.size).toBe(names.filter((_, i) => !auto(i) && !restored(i)).length);
    console.log(
      `simulated year (${kind}): ${names.length} domains (${names.filter((_, i) => auto(i)).length} auto, ${names.length - names.filter((_, i) => auto(i)).length} expire), ${STEPS} steps of ${STEP_DAYS} days, ${renewalsBilled} renewals billed once each, ${restoredAt.size} restored, ${purgedAt.size} purged, ${((performance.now() - wall) / 1000).toFixed(1)} s`,
    );
  });
});
