import { afterAll, beforeAll, expect, it } from 'vitest';
import { REGISTRY_CHANGE } from '../../src/modules/domain/changes.ts';
import { enqueue } from '../../src/outbox/outbox.ts';
import { type DomainTest, describeRegistries, fieldErrors, openDomainTest } from './helpers.ts';

const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

describeRegistries('bulk actions from the domain list on %s', (kind, registry) => {
  let t: DomainTest;
  beforeAll(async () => {
    t = await openDomainTest(kind, registry);
    // Registered on first sight, as the list's domains are once opened.
    for (const reference of ['x.es', 'y.com', 'z.eu']) await t.get(`/domain/${t.id(reference)}/`);
  });
  afterAll(() => t.close());

  const domainOf = async (reference: string) => (await t.get(`/domain/${t.id(reference)}/?language=en`)).body.data.domain;
  const results = (body: { data: { items: { name: string; state: string; message: string }[] } }) =>
    Object.fromEntries(body.data.items.map((i) => [i.name, i.state]));

  it('renews the selected domains through the registry queue, one result per domain, each renewal billed once', async () => {
    const before = await domainOf('y.com');
    const started = await t.postQueued('/domain/bulk/?language=en', { action: 'renew', years: '1', ids: [t.id('y.com'), t.id('z.eu')] });
    expect(started.status).toBe(200);
    expect(started.body.data).toMatchObject({ action: 'renew', total: 2, counts: { queued: 2, done: 0, failed: 0, skipped: 0 } });
    expect(started.body.system.info).toEqual(['Action under way on 2 domains']);
    await t.drain();
    const progress = await t.get(`/domain/bulk/${started.body.data.id}/`);
    expect(progress.body.data.counts).toEqual({ queued: 0, done: 2, failed: 0, skipped: 0 });
    expect(results(progress.body)).toEqual({ 'y.com': 'done', 'z.eu': 'done' });
    const after = await domainOf('y.com');
    expect(day(after.expireTS)).toBe(`${Number(day(before.expireTS).slice(0, 4)) + 1}${day(before.expireTS).slice(4)}`);
    const ledger = await t.ctx.store.selectFrom('billing_event').selectAll().where('action', '=', 'renew').execute();
    expect(ledger.map((e) => [e.domain, e.from_date]).sort()).toContainEqual(['y.com', day(before.expireTS)]);
    expect(ledger.filter((e) => e.domain === 'y.com')).toHaveLength(1);
    // The job run again (a crash after the registry answered) neither renews nor bills a second time.
    const change = await t.ctx.store
      .selectFrom('registry_change')
      .select('id')
      .where('action', '=', 'renew')
      .where('item_id', '=', t.id('y.com'))
      .executeTakeFirstOrThrow();
    await t.ctx.store.updateTable('registry_change').set({ state: 'queued' }).where('id', '=', change.id).execute();
    await enqueue(t.ctx.store, REGISTRY_CHANGE, { changeId: change.id }, t.id('y.com'));
    await t.drain();
    expect((await domainOf('y.com')).expireTS).toBe(after.expireTS);
    expect(await t.ctx.store.selectFrom('billing_event').selectAll().where('domain', '=', 'y.com').execute()).toHaveLength(1);
  });

  it("skips another realm's domain without naming it, and a domain the user may only read for lack of permission", async () => {
    const foreign = t.id('other.com');
    const res = await t.post(
      '/domain/bulk/?language=en',
      { action: 'renewal', mode: 'expire', ids: [t.id('y.com'), foreign, 999_999] },
      'r',
    );
    expect(res.status).toBe(200);
    expect(res.body.data.items).toEqual([
      { id: t.id('y.com'), name: 'y.com', state: 'skipped', message: 'You are not allowed to do this on this domain' },
      { id: foreign, name: '', state: 'skipped', message: 'This domain does not exist or you have no access to it' },
      { id: 999_999, name: '', state: 'skipped', message: 'This domain does not exist or you have no access to it' },
    ]);
    expect(JSON.stringify(res.body)).not.toContain('other.com');
    expect((await domainOf('y.com')).renewalMode).toBe('auto');
    const row = await t.ctx.store.selectFrom('domain').select('renewal_mode').where('item_id', '=', foreign).executeTakeFirstOrThrow();
    expect(row.renewal_mode).toBe('auto');
  });

  it('sets the renewal mode of the selected domains at once, the panel being its only keeper', async () => {
    const res = await t.post('/domain/bulk/', { action: 'renewal', mode: 'expire', ids: [t.id('y.com'), t.id('z.eu')] });
    expect(res.body.data.counts).toEqual({ queued: 0, done: 2, failed: 0, skipped: 0 });
    expect((await domainOf('z.eu')).renewalMode).toBe('expire');
    await t.post('/domain/bulk/', { action: 'renewal', mode: 'auto', ids: [t.id('y.com'), t.id('z.eu')] });
    expect((await domainOf('z.eu')).renewalMode).toBe('auto');
  });

  it("shows a domain the registry refused with the refusal's reason, and retries it from the same batch once the cause is gone", async () => {
    await t.get(`/domain/${t.id('y.com')}/toggle/block/`);
    expect((await domainOf('y.com')).blocked).toBe(true);
    const servers = ['ns1.bulk-example.net', 'ns2.bulk-example.net'];
    const res = await t.post('/domain/bulk/?language=en', { action: 'nameServers', dns: servers, ids: [t.id('y.com'), t.id('z.eu')] });
    const bulk = (await t.get(`/domain/bulk/${res.body.data.id}/?language=en`)).body.data;
    expect(results({ data: bulk })).toEqual({ 'y.com': 'failed', 'z.eu': 'done' });
    expect(bulk.items[0].message).toMatch(/block|prohibit/i);
    expect((await domainOf('z.eu')).dns.servers).toEqual(servers);
    await t.get(`/domain/${t.id('y.com')}/toggle/block/`);
    const retried = await t.post(`/domain/bulk/${res.body.data.id}/retry/?language=en`, {});
    expect(retried.body.system.info).toEqual(['Retrying 1 domains']);
    const again = (await t.get(`/domain/bulk/${res.body.data.id}/`)).body.data;
    expect(again.counts).toEqual({ queued: 0, done: 2, failed: 0, skipped: 0 });
    expect((await domainOf('y.com')).dns.servers).toEqual(servers);
  });

  it('sets a lock on the selected domains at the registry', async () => {
    await t.post('/domain/bulk/', { action: 'lock', lock: 'transferblock', on: '1', ids: [t.id('y.com'), t.id('z.eu')] });
    expect((await domainOf('y.com')).transferBlock).toBe(true);
    expect((await domainOf('z.eu')).transferBlock).toBe(true);
    await t.post('/domain/bulk/', { action: 'lock', lock: 'transferblock', on: '0', ids: [t.id('y.com'), t.id('z.eu')] });
    expect((await domainOf('z.eu')).transferBlock).toBe(false);
  });

  it("copies one domain's admin, billing and tech contacts to the selected domains, leaving their registrants", async () => {
    const fields = {
      isOrg: '0',
      firstName: 'Ada',
      lastName: 'Copia',
      identNumber: '12345678Z',
      email: 'ada@example.com',
      phone: '+34.600000000',
      country: 'ES',
      state: 'Madrid',
      city: 'Madrid',
      postalCode: '28001',
      address: 'Calle 1',
    };
    await t.post(`/domain/${t.id('x.es')}/contacts/save/`, { ...fields, type: 'admin', mode: 'all_contacts' });
    const registrant = (await t.get(`/domain/${t.id('z.eu')}/`)).body.data.registrant;
    const res = await t.post('/domain/bulk/', { action: 'contacts', sourceId: String(t.id('x.es')), ids: [t.id('z.eu')] });
    expect((await t.get(`/domain/bulk/${res.body.data.id}/`)).body.data.counts.done).toBe(1);
    const after = (await t.get(`/domain/${t.id('z.eu')}/`)).body.data;
    for (const role of ['admin', 'billing', 'tech']) expect(after[role]).toMatchObject({ firstName: 'Ada', lastName: 'Copia' });
    expect(after.registrant).toEqual(registrant);
  });

  it('refuses a source domain whose contacts the caller cannot see, under its field, without copying', async () => {
    const res = await t.post('/domain/bulk/?language=en', { action: 'contacts', sourceId: String(t.id('other.com')), ids: [t.id('z.eu')] });
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toEqual({ sourceId: 'Choose a domain whose contacts you can see' });
  });

  it("refuses an action without its fields under each field, in the caller's language", async () => {
    const res = await t.post('/domain/bulk/?language=es', { action: 'renew', ids: [] });
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toMatchObject({ ids: 'Selecciona al menos un dominio', years: expect.any(String) });
    const tooLong = await t.post('/domain/bulk/?language=en', { action: 'renew', years: '11', ids: [t.id('y.com')] });
    expect(fieldErrors(tooLong.body)).toEqual({ years: 'Choose from 1 to 10 years' });
  });

  it('shows a batch only to the user who started it', async () => {
    const res = await t.post('/domain/bulk/', { action: 'renewal', mode: 'auto', ids: [t.id('y.com')] });
    expect((await t.get(`/domain/bulk/${res.body.data.id}/`, 'r')).status).toBe(404);
    expect((await t.post(`/domain/bulk/${res.body.data.id}/retry/`, {}, 'r')).status).toBe(404);
  });
});
