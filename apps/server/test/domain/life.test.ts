import { afterAll, beforeAll, expect, it } from 'vitest';
import { renewDue } from '../../src/modules/domain/auto-renew.ts';
import { type DomainTest, describeRegistries, fieldErrors, openDomainTest } from './helpers.ts';

const DAY = 86_400;
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

describeRegistries('renew, restore and a new auth code on %s', (kind, registry) => {
  let t: DomainTest;
  beforeAll(async () => {
    t = await openDomainTest(kind, registry);
  });
  afterAll(() => t.close());

  const domainOf = async (reference: string) => (await t.get(`/domain/${t.id(reference)}/?language=en`)).body.data.domain;
  const ledger = (action: string, reference: string) =>
    t.ctx.store.selectFrom('billing_event').selectAll().where('item_id', '=', t.id(reference)).where('action', '=', action).execute();

  /** Sets a domain's expiry at its registry (the test registry's object, or the local registry's row) and lets time act on it. */
  async function expireAt(reference: string, seconds: number) {
    await domainOf(reference); // the screen's first read (openDomainTest registered it, decision 051)
    const name = reference;
    if (t.registry) {
      t.registry.state.data.domains[name].exDate = new Date(seconds * 1000).toISOString();
      t.registry.tick();
    }
    // The store's copy of the expiry (the local registry's own), as the panel holds it once it has read the registry's;
    // and a change the panel did not make: the next read must not come from memory.
    await t.ctx.store
      .updateTable('domain')
      .set({ expire_at: seconds, updated_at: Math.floor(Date.now() / 1000) })
      .where('item_id', '=', t.id(reference))
      .execute();
  }

  it('renews for two years from the expiry date shown, answers the new date at once, and bills it once', async () => {
    const before = await domainOf('y.com');
    expect(before.expiry).toEqual({ state: 'active', until: before.expireTS });
    const res = await t.post(`/domain/${t.id('y.com')}/renew/?language=en`, { years: '2', curExpDate: day(before.expireTS) });
    expect(res.status).toBe(200);
    expect(res.body.system.info).toEqual(['Domain renewed']);
    const after = res.body.data.domain;
    expect(day(after.expireTS)).toBe(`${Number(day(before.expireTS).slice(0, 4)) + 2}${day(before.expireTS).slice(4)}`);
    expect((await domainOf('y.com')).expireTS).toBe(after.expireTS);
    const events = await ledger('renew', 'y.com');
    expect(events).toMatchObject([{ domain: 'y.com', years: 2, from_date: day(before.expireTS) }]);
  });

  it('never renews twice when the same renewal is sent again: the old date is refused under its field', async () => {
    const before = await domainOf('z.eu');
    const fields = { years: '1', curExpDate: day(before.expireTS) };
    expect((await t.post(`/domain/${t.id('z.eu')}/renew/`, fields)).status).toBe(200);
    const again = await t.post(`/domain/${t.id('z.eu')}/renew/?language=en`, fields);
    expect(again.status).toBe(400);
    expect(fieldErrors(again.body)).toEqual({
      curExpDate: `The expiry date is no longer ${fields.curExpDate}: the domain has changed, check its new date before renewing`,
    });
    expect(day((await domainOf('z.eu')).expireTS).slice(0, 4)).toBe(String(Number(fields.curExpDate.slice(0, 4)) + 1));
    expect(await ledger('renew', 'z.eu')).toHaveLength(1);
  });

  it('refuses 0 and 11 years, and a renewal that would pass 10 years from today, changing nothing', async () => {
    const before = await domainOf('x.es');
    const url = `/domain/${t.id('x.es')}/renew/?language=en`;
    for (const years of ['0', '11']) {
      const res = await t.post(url, { years, curExpDate: day(before.expireTS) });
      expect(res.status).toBe(400);
      expect(fieldErrors(res.body)).toEqual({ years: 'Choose from 1 to 10 years' });
    }
    const far = await t.post(url, { years: '10', curExpDate: day(before.expireTS) });
    expect(far.status).toBe(400);
    expect(Object.keys(fieldErrors(far.body))).toEqual(['years']);
    expect((await domainOf('x.es')).expireTS).toBe(before.expireTS);
    expect(await ledger('renew', 'x.es')).toHaveLength(0);
  });

  it('lets only a domain writer renew, restore or make a new auth code', async () => {
    const id = t.id('x.es');
    const { expireTS } = await domainOf('x.es');
    for (const user of ['r', 'd']) {
      expect((await t.post(`/domain/${id}/renew/`, { years: '1', curExpDate: day(expireTS) }, user)).status).toBe(403);
      expect((await t.post(`/domain/${id}/restore/`, {}, user)).status).toBe(403);
    }
    // The auth code is an area of its own: a reader of it may not replace it, and a user without it does not see it.
    expect((await t.post(`/domain/${id}/authcode/regenerate/`, {}, 'r')).status).toBe(403);
    expect((await t.post(`/domain/${id}/authcode/regenerate/`, {}, 'd')).status).toBe(404);
    expect((await t.post(`/domain/${t.id('other.com')}/renew/`, { years: '1', curExpDate: day(expireTS) })).status).toBe(404);
    expect((await domainOf('x.es')).expireTS).toBe(expireTS);
  });

  it('refuses to restore a domain that is not in redemption', async () => {
    const res = await t.post(`/domain/${t.id('x.es')}/restore/?language=en`, {});
    expect(res.status).toBe(409);
    expect(res.body.system.errors).toEqual(['Only a domain in its redemption period can be restored']);
  });

  it('shows an expired domain in its renewal grace until its deletion, and renews it from the old date', async () => {
    const expired = Math.floor(Date.now() / 1000) - 10 * DAY;
    await expireAt('z.eu', expired);
    const shown = await domainOf('z.eu');
    expect(shown.expiry.state).toBe('grace');
    expect(day(shown.expiry.until)).toBe(day(expired + 45 * DAY));
    // The dashboard's "expiring soon" says the same.
    const expiring = (await t.get('/expiring/')).body.data.expiring as { name: string; expiry?: unknown }[];
    expect(expiring.find((e) => e.name === 'z.eu')?.expiry).toEqual(shown.expiry);
    const res = await t.post(`/domain/${t.id('z.eu')}/renew/`, { years: '1', curExpDate: day(shown.expireTS) });
    expect(res.status).toBe(200);
    expect(res.body.data.domain.expiry.state).toBe('active');
  });

  it('restores a domain from redemption, renewed until it is current, and bills the restore once', async () => {
    const expired = Math.floor(Date.now() / 1000) - 50 * DAY;
    await expireAt('y.com', expired);
    const shown = await domainOf('y.com');
    expect(shown.expiry.state).toBe('redemption');
    expect(day(shown.expiry.until)).toBe(day(expired + 75 * DAY));
    const renew = await t.post(`/domain/${t.id('y.com')}/renew/?language=en`, { years: '1', curExpDate: day(shown.expireTS) });
    expect(renew.status).toBe(409);
    expect(renew.body.system.errors).toEqual(['The domain can no longer be renewed: it is in redemption or pending delete']);
    const res = await t.post(`/domain/${t.id('y.com')}/restore/?language=en`, {});
    expect(res.status).toBe(200);
    expect(res.body.system.info).toEqual(['Domain restored']);
    expect(res.body.data.domain.expiry.state).toBe('active');
    expect(res.body.data.domain.expireTS).toBeGreaterThan(Date.now() / 1000);
    expect(day(res.body.data.domain.expireTS).slice(5)).toBe(day(expired).slice(5));
    expect(await ledger('restore', 'y.com')).toMatchObject([{ years: 1, from_date: day(expired) }]);
    expect((await t.post(`/domain/${t.id('y.com')}/restore/`, {})).status).toBe(409);
    expect(await ledger('restore', 'y.com')).toHaveLength(1);
  });

  it('lists each domain with the state and date its screen shows, the service list without them', async () => {
    const list = await t.get('/list/domain/');
    expect(list.status).toBe(200);
    const rows = list.body.data.rows as { reference: string; expiry: unknown }[];
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) expect(row.expiry, row.reference).toEqual((await domainOf(row.reference)).expiry);
    expect(rows.find((r) => r.reference === 'y.com')?.expiry).toMatchObject({ state: 'active' });
    const services = (await t.get('/list/service/')).body.data.rows as { expiry?: unknown }[];
    expect(services.every((r) => r.expiry === undefined)).toBe(true);
  });

  it('makes a new, long, random auth code on request, and the old one stops being the domain’s', async () => {
    const id = t.id('z.eu');
    const old = (await t.get(`/domain/${id}/authcode/`)).body.data.authCode;
    const res = await t.post(`/domain/${id}/authcode/regenerate/?language=en`, {});
    expect(res.status).toBe(200);
    expect(res.body.system.info).toEqual(['New authorisation code generated: the old one no longer works']);
    const fresh = res.body.data.authCode;
    expect(fresh).toHaveLength(22);
    expect(fresh).not.toBe(old);
    expect((await t.get(`/domain/${id}/authcode/`)).body.data.authCode).toBe(fresh);
    if (t.registry) expect(t.registry.state.data.domains['z.eu'].authInfo).toBe(fresh);
  });
});

describeRegistries('renewal modes and the renewal schedule on %s', (kind, registry) => {
  let t: DomainTest;
  beforeAll(async () => {
    t = await openDomainTest(kind, registry);
  });
  afterAll(() => t.close());

  const domainOf = async (reference: string) => (await t.get(`/domain/${t.id(reference)}/?language=en`)).body.data.domain;

  it('switches a domain between auto renewal and letting it expire, for a domain writer only', async () => {
    const id = t.id('z.eu');
    expect((await domainOf('z.eu')).renewalMode).toBe('auto');
    const off = await t.post(`/domain/${id}/renewal/?language=en`, { mode: 'expire' });
    expect(off.status).toBe(200);
    expect(off.body.data.domain.renewalMode).toBe('expire');
    expect(off.body.system.info).toEqual(['The domain will not be renewed: it will expire on its date']);
    expect((await t.post(`/domain/${id}/renewal/`, { mode: 'auto' }, 'r')).status).toBe(403);
    const bad = await t.post(`/domain/${id}/renewal/?language=en`, { mode: 'sometimes' });
    expect(bad.status).toBe(400);
    expect(Object.keys(fieldErrors(bad.body))).toEqual(['mode']);
    expect((await domainOf('z.eu')).renewalMode).toBe('expire');
  });

  it('renews what is due in auto mode once, however often the schedule runs, and leaves the others to expire', async () => {
    // x.es and y.com are in auto mode, z.eu was set to expire above; all expire within the year.
    // The other realm's domain (never registered at an epp registry) is left out by letting it expire.
    await t.ctx.store.updateTable('domain').set({ renewal_mode: 'expire' }).where('item_id', '=', t.id('other.com')).execute();
    const before = { x: await domainOf('x.es'), y: await domainOf('y.com'), z: await domainOf('z.eu') };
    const at = Math.max(before.x.expireTS, before.y.expireTS, before.z.expireTS) - 10 * DAY;
    const first = await renewDue(t.ctx.app.runtime, at);
    expect(first.map((o) => o.name).sort()).toEqual(['x.es', 'y.com']);
    expect(await renewDue(t.ctx.app.runtime, at)).toEqual([]);
    await t.drain();
    const changes = await t.ctx.store
      .selectFrom('registry_change')
      .select('state')
      .where(
        'id',
        'in',
        first.map((o) => o.change),
      )
      .execute();
    expect(changes.map((c) => c.state)).toEqual(['done', 'done']);
    const after = { x: await domainOf('x.es'), y: await domainOf('y.com'), z: await domainOf('z.eu') };
    expect(day(after.x.expireTS)).toBe(`${Number(day(before.x.expireTS).slice(0, 4)) + 1}${day(before.x.expireTS).slice(4)}`);
    expect(after.z.expireTS).toBe(before.z.expireTS);
    const events = await t.ctx.store.selectFrom('billing_event').select(['domain', 'actor']).orderBy('domain').execute();
    expect(events).toEqual([
      { domain: 'x.es', actor: 'schedule' },
      { domain: 'y.com', actor: 'schedule' },
    ]);
  });
});
