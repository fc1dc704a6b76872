import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { pollRegistry } from '../../src/modules/domain/poll.ts';
import { reconcileRegistry } from '../../src/modules/domain/reconcile.ts';
import { CLIENT_ID } from '../registry-epp/harness.ts';
import { describeStores } from '../stores.ts';
import { type DomainTest, openDomainTest } from './helpers.ts';

const DAY = 86_400;
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
const plusYears = (date: string, years: number) => `${Number(date.slice(0, 4)) + years}${date.slice(4)}`;

/**
 * The registry rules a mutation round broke with every test green (issue 44.10), each over EPP
 * against the test registry: what the registry holds is the truth the panel renews, bills and
 * acknowledges from.
 */
describeStores('the registry rules the panel keeps on %s', (kind) => {
  let t: DomainTest;
  let id: number;
  beforeEach(async () => {
    t = await openDomainTest(kind, 'epp');
    id = t.id('y.com');
    await t.get(`/domain/${id}/`); // the screen's first read (openDomainTest registered it, decision 051)
  });
  afterEach(() => t.close());

  const registered = () => t.registry!.state.data.domains['y.com'];
  const ledger = () => t.ctx.store.selectFrom('billing_event').selectAll().where('item_id', '=', id).execute();
  const stored = async () =>
    Number((await t.ctx.store.selectFrom('domain').select('expire_at').where('item_id', '=', id).executeTakeFirstOrThrow()).expire_at);

  it("renews a domain whose stored expiry lags the registry's from the registry's date, and stores the new one", async () => {
    const registryDate = day(Date.parse(registered().exDate) / 1000);
    // The panel's copy is a year behind (a renewal it never heard of): the screen and the command go by the registry's.
    await t.ctx.store
      .updateTable('domain')
      .set({ expire_at: (await stored()) - 365 * DAY, updated_at: 1 })
      .where('item_id', '=', id)
      .execute();
    const res = await t.post(`/domain/${id}/renew/?language=en`, { years: '1', curExpDate: registryDate });
    expect(res.status).toBe(200);
    expect(res.body.system.info).toEqual(['Domain renewed']);
    expect(registered().exDate.slice(0, 10)).toBe(plusYears(registryDate, 1));
    expect(day(await stored())).toBe(plusYears(registryDate, 1));
    expect((await ledger()).map((l) => [l.from_date, l.years])).toEqual([[registryDate, 1]]);
  });

  it('bills nothing for a queued bulk renewal the registry refuses, and shows it failed', async () => {
    const before = registered().exDate;
    t.registry!.serverStatus('domain', 'y.com', ['serverRenewProhibited']);
    const started = await t.postQueued('/domain/bulk/?language=en', { action: 'renew', years: '1', ids: [id] });
    expect(started.status).toBe(200);
    await t.drain();
    const bulk = (await t.get(`/domain/bulk/${started.body.data.id}/?language=en`)).body.data;
    expect(bulk.counts).toEqual({ queued: 0, done: 0, failed: 1, skipped: 0 });
    expect(await ledger()).toEqual([]);
    expect(registered().exDate).toBe(before);
  });

  it('finds a poll message again on the next poll when applying it failed: it is acknowledged only once recorded', async () => {
    t.registry!.queueMessage(CLIENT_ID, 'Scheduled maintenance on Sunday');
    // The store refuses to keep it (a full disk, a lost connection): applying the message fails.
    await refuseMessages(t, true);
    await expect(pollRegistry(t.ctx.store, t.ctx.app.runtime.drivers.registry)).rejects.toThrow(/refused/);
    expect(t.registry!.state.data.messages.map((m) => m.msg)).toEqual(['Scheduled maintenance on Sunday']);
    await refuseMessages(t, false);
    expect(await pollRegistry(t.ctx.store, t.ctx.app.runtime.drivers.registry)).toBe(1);
    expect(t.registry!.state.data.messages).toEqual([]);
    const kept = await t.ctx.store.selectFrom('registry_message').select('text').execute();
    expect(kept).toEqual([{ text: 'Scheduled maintenance on Sunday' }]);
  });

  it('bills once, with reconcile --repair, a renewal the registry applied and the ledger never heard of', async () => {
    const before = await stored();
    // Renewed at the registry, the panel gone before it wrote a line: the registry's expiry two years on.
    registered().exDate = new Date((before + 2 * 365 * DAY) * 1000).toISOString();
    await t.ctx.store.updateTable('domain').set({ updated_at: 1 }).where('item_id', '=', id).execute();
    const found = await reconcileRegistry(t.ctx.store, t.ctx.app.runtime.drivers.registry, false);
    expect(found.map((d) => d.subject)).toEqual(['y.com expiry (renewal not billed)']);
    expect(await ledger()).toEqual([]);
    const repaired = await reconcileRegistry(t.ctx.store, t.ctx.app.runtime.drivers.registry, true);
    expect(repaired.map((d) => d.outcome)).toEqual(['repaired']);
    expect(await reconcileRegistry(t.ctx.store, t.ctx.app.runtime.drivers.registry, true)).toEqual([]);
    expect((await ledger()).map((l) => [l.action, l.years, l.from_date, l.actor])).toEqual([['renew', 2, day(before), 'reconcile']]);
    expect(day(await stored())).toBe(day(before + 2 * 365 * DAY));
  });

  it('leaves a renewal the ledger has already alone: the stored expiry is set, nothing billed again', async () => {
    const date = day(Date.parse(registered().exDate) / 1000);
    await t.post(`/domain/${id}/renew/`, { years: '1', curExpDate: date });
    // The panel's copy is behind the registry's again (a restore of an old backup): only the date is repaired.
    await t.ctx.store.updateTable('domain').set({ expire_at: 1_000_000_000 }).where('item_id', '=', id).execute();
    const repaired = await reconcileRegistry(t.ctx.store, t.ctx.app.runtime.drivers.registry, true);
    expect(repaired.map((d) => d.subject)).toEqual(['y.com expiry']);
    expect(await ledger()).toHaveLength(1);
  });
});

describeStores('a renewal whose registry change has not run yet on %s', (kind) => {
  let t: DomainTest;
  beforeEach(async () => {
    // No worker runs and the call waits for nothing: its change is still queued when it answers.
    t = await openDomainTest(kind, 'local', [], {}, { 'jobs.waitSeconds': 0 });
  });
  afterEach(() => t.close());

  it('answers the renewal pending, with the change shown pending, and bills it once the outbox applies it', async () => {
    const id = t.id('y.com');
    const before = (await t.get(`/domain/${id}/`)).body.data.domain;
    const res = await t.postQueued(`/domain/${id}/renew/?language=en`, { years: '1', curExpDate: day(before.expireTS) });
    expect(res.status).toBe(200);
    expect(res.body.system.info).toEqual([
      'The registry has not answered yet: the change is on its way and shows as pending until it applies',
    ]);
    expect(res.body.data.domain.expireTS).toBe(before.expireTS);
    expect(res.body.data.changes).toMatchObject([{ action: 'renew', state: 'pending' }]);
    expect(await t.ctx.store.selectFrom('billing_event').selectAll().execute()).toEqual([]);
    await t.drain();
    const after = (await t.get(`/domain/${id}/`)).body.data;
    expect(after.changes).toEqual([]);
    expect(day(after.domain.expireTS)).toBe(plusYears(day(before.expireTS), 1));
    expect(await t.ctx.store.selectFrom('billing_event').select('from_date').execute()).toEqual([{ from_date: day(before.expireTS) }]);
  });
});

/** A trigger that makes the store refuse to keep a registry message, or lifts it. */
async function refuseMessages(t: DomainTest, on: boolean) {
  const store = t.ctx.store;
  if (store.kind === 'sqlite') {
    if (on)
      await sql`CREATE TRIGGER refuse_message BEFORE INSERT ON registry_message BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`.execute(
        store,
      );
    else await sql`DROP TRIGGER refuse_message`.execute(store);
    return;
  }
  if (on) {
    await sql`CREATE FUNCTION refuse_message() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$ LANGUAGE plpgsql`.execute(
      store,
    );
    await sql`CREATE TRIGGER refuse_message BEFORE INSERT ON registry_message FOR EACH ROW EXECUTE FUNCTION refuse_message()`.execute(
      store,
    );
  } else {
    await sql`DROP TRIGGER refuse_message ON registry_message`.execute(store);
    await sql`DROP FUNCTION refuse_message()`.execute(store);
  }
}
