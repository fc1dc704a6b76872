import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestRegistry } from '../../../registry/src/server.ts';
import { claimRenewals } from '../../src/modules/domain/auto-renew.ts';
import { pollRegistry } from '../../src/modules/domain/poll.ts';
import { type Account, createAccount, type Fields, type Reply, send } from '../fixtures.ts';
import { CLIENT_ID, certificateFiles, eppDriverConfig, PASSWORD, startTestRegistry } from '../registry-epp/harness.ts';
import { describeStores, openTestApp, type StoreKind, type TestContext } from '../stores.ts';
import { OTHER_CLIENT } from './helpers.ts';

const DAY_MS = 86_400_000;
const year = (seconds: number) => new Date(seconds * 1000).getUTCFullYear();

/** One panel: its own store and app, signed in at the test registry as one registrar account. */
interface Panel {
  ctx: TestContext;
  account: Account;
  id: number;
  get(url: string): Promise<Reply>;
  post(url: string, fields?: Fields): Promise<Reply>;
  /** The registry's message queue read as the schedule reads it. */
  poll(): Promise<number>;
  ledger(): Promise<{ action: string; years: number }[]>;
}

describeStores('a domain moved between two registrar accounts and back, completed from the poll queue on %s', (kind: StoreKind) => {
  const certs = certificateFiles();
  let registry: TestRegistry;
  let a: Panel;
  let b: Panel;

  async function openPanel(clientId: string, password: string, transferIn: boolean): Promise<Panel> {
    const ctx = await openTestApp(kind, {
      'drivers.registry': eppDriverConfig(registry, certs, clientId, password),
    });
    const account = await createAccount(ctx.store, {
      users: { w: 'all=write' },
      items: [{ reference: 'move.com', domain: true, transferIn }],
    });
    const headers = await account.as('w');
    const id = account.items['move.com'];
    const call = async (method: 'GET' | 'POST', url: string, fields?: Fields) => {
      const reply = await send(ctx.app, method, url.replace('{id}', String(id)), headers, fields);
      await ctx.app.runtime.outbox.drain();
      return reply;
    };
    return {
      ctx,
      account,
      id,
      get: (url) => call('GET', url),
      post: (url, fields = {}) => call('POST', url, fields),
      poll: () => pollRegistry(ctx.store, ctx.app.runtime.drivers.registry),
      ledger: () => ctx.store.selectFrom('billing_event').select(['action', 'years']).where('item_id', '=', id).execute(),
    };
  }

  /** Whether the panel's renewal schedule would claim the domain (any expiry within ten years). */
  const renewable = async (panel: Panel) =>
    (await panel.ctx.store.transaction().execute((trx) => claimRenewals(trx, 3650, 45, Math.floor(Date.now() / 1000)))).some(
      (c) => c.item_id === panel.id,
    );

  beforeAll(async () => {
    registry = await startTestRegistry(certs, { clients: { [CLIENT_ID]: PASSWORD, [OTHER_CLIENT]: 'secret-b1' } });
    a = await openPanel(CLIENT_ID, PASSWORD, false);
    b = await openPanel(OTHER_CLIENT, 'secret-b1', true);
  });
  afterAll(async () => {
    await a.ctx.close();
    await b.ctx.close();
    await registry.close();
  });

  it('moves the domain out of A when A approves B’s request, and back in to A when the registry approves A’s after 5 days', async () => {
    // A's writer registers it (decision 051); B's item waits for it.
    expect((await a.post('/domain/{id}/register/')).status).toBe(200);
    const atA = (await a.get('/domain/{id}/?language=en')).body.data;
    expect(atA.domain.heldBy).toBeNull();
    expect(registry.state.data.domains['move.com'].clID).toBe(CLIENT_ID);
    expect((await b.get('/domain/{id}/')).body.data.domain).toMatchObject({ heldBy: CLIENT_ID, transferIn: true });

    // Out of A: the registrant gives B the code A shows; B asks, A hears it from its queue and approves.
    const code = (await a.get('/domain/{id}/authcode/')).body.data.authCode;
    expect((await b.post('/domain/{id}/transfer/request/', { authCode: code })).status).toBe(200);
    expect((await b.get('/domain/{id}/transfer/')).body.data).toMatchObject({
      direction: 'in',
      status: 'pending',
      change: { state: 'pending' },
    });
    expect(await a.poll()).toBeGreaterThan(0);
    const out = (await a.get('/domain/{id}/transfer/')).body.data;
    expect(out).toMatchObject({ direction: 'out', status: 'pending', requestedBy: OTHER_CLIENT });
    expect((await a.post('/domain/{id}/transfer/approve/')).status).toBe(200);

    // B learns it from its own queue, with no reconcile: the domain is B's, read in from the registry.
    expect(await b.poll()).toBeGreaterThan(0);
    const atB = (await b.get('/domain/{id}/?language=en')).body.data;
    expect(atB.domain).toMatchObject({ heldBy: null, transferIn: false, pendingTransfer: false });
    expect(year(atB.domain.expireTS)).toBe(year(atA.domain.expireTS) + 1);
    expect(atB.domain.dns.servers).toEqual(atA.domain.dns.servers);
    expect(atB.registrant.name).toBe(atA.registrant.name);
    expect(await b.ledger()).toEqual([{ action: 'transfer_in', years: 1 }]);
    expect((await a.get('/domain/{id}/')).body.data.domain).toMatchObject({ heldBy: OTHER_CLIENT, transferIn: false });
    // Gone from A: A's renewal schedule leaves it to B.
    expect(await renewable(a)).toBe(false);
    expect(await renewable(b)).toBe(true);

    // Back in to A: B never answers, and the registry approves it when its 5 days have passed.
    const back = (await b.get('/domain/{id}/authcode/')).body.data.authCode;
    expect((await a.post('/domain/{id}/transfer/request/', { authCode: back })).status).toBe(200);
    expect(await b.poll()).toBeGreaterThan(0);
    expect((await b.get('/domain/{id}/transfer/')).body.data).toMatchObject({
      direction: 'out',
      status: 'pending',
      requestedBy: CLIENT_ID,
    });
    registry.advanceClock(5 * DAY_MS + 60_000);
    expect(await a.poll()).toBeGreaterThan(0);
    const home = (await a.get('/domain/{id}/?language=en')).body.data;
    expect(home.domain).toMatchObject({ heldBy: null, transferIn: false, pendingTransfer: false });
    expect(year(home.domain.expireTS)).toBe(year(atA.domain.expireTS) + 2);
    expect((await a.get('/domain/{id}/transfer/')).body.data).toMatchObject({ direction: 'in', status: 'serverApproved', change: null });
    expect(await a.ledger()).toEqual([
      { action: 'register', years: 1 },
      { action: 'transfer_in', years: 1 },
    ]);
    await b.poll();
    expect(await renewable(a)).toBe(true);
    expect(await renewable(b)).toBe(false);
    expect((await b.get('/domain/{id}/')).body.data.domain).toMatchObject({ heldBy: CLIENT_ID });
    expect(await b.ledger()).toEqual([{ action: 'transfer_in', years: 1 }]);
  });
});
