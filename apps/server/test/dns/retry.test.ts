import { afterAll, beforeAll, expect, it } from 'vitest';
import { failForGood, statusOf } from '../failing.ts';
import { type Account, createAccount, send } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

describeStores("a user's retry of a DNS zone's failed apply on %s", (kind) => {
  let ctx: TestContext;
  let account: Account;
  let zone: number;

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    account = await createAccount(ctx.store, {
      users: { w: 'all=write', r: 'all=read', nodns: 'all=write,service_dnszone=disabled', sitesonly: 'service_subdomains=write' },
      items: [
        { reference: 'zona.es', domain: true, service: 'normal' },
        { reference: 'otra.es', domain: true, service: 'normal' },
      ],
    });
    zone = account.items['zona.es'];
  });
  afterAll(() => ctx.close());

  const call = async (user: string, url: string, body?: Record<string, string>, item = zone) =>
    send(ctx.app, body ? 'POST' : 'GET', `/service/${item}/${url}`, await account.as(user), body);
  const create = async (name: string) =>
    (await call('w', 'dns/create/', { type: 'A', zona: name, value: '192.0.2.7' })).body.system.job as number;
  /** The zone's state as both forms of the list call answer it. */
  async function zoneState() {
    const all = (await call('r', 'dns/list/')).body.data;
    const page = (await call('r', 'dns/list/?page=1')).body.data;
    expect({ state: page.state, job: page.job }).toEqual({ state: all.state, job: all.job });
    return { state: all.state, job: all.job };
  }
  const served = async () => {
    const row = await ctx.store.selectFrom('dns_zone').select('served').where('item_id', '=', zone).executeTakeFirstOrThrow();
    return (JSON.parse(row.served ?? '[]') as { name: string }[]).map((s) => s.name);
  };
  const failZone = (job: number) =>
    failForGood(ctx, job, ctx.app.runtime.drivers.dns, ['applyZone', 'patchRRsets'], 'PowerDNS: connect ECONNREFUSED');

  it('shows a zone whose apply failed as failed with that job, and a writer retries it until the DNS server holds it', async () => {
    await call('w', 'dns/list/');
    await ctx.app.runtime.outbox.drain();
    const job = await create('caido');
    expect(await failZone(job)).toEqual({ status: 'failed', last_error: 'PowerDNS: connect ECONNREFUSED' });
    expect(await zoneState()).toEqual({ state: 'failed', job });
    expect(await served()).not.toContain('caido.zona.es.');

    const retried = await call('w', `job/${job}/retry/`, {});
    expect(retried.status).toBe(200);
    expect(retried.body.system).toMatchObject({ job, info: ['Se volverá a aplicar el cambio'] });
    expect(await zoneState()).toEqual({ state: 'pending', job });
    await ctx.app.runtime.outbox.drain();
    expect(await zoneState()).toEqual({ state: 'ready', job });
    expect(await served()).toContain('caido.zona.es.');
  });

  it('sends the whole zone with the change after a failed apply, so the failed change reaches the server too', async () => {
    const failed = await create('perdido');
    await failZone(failed);
    const next = await create('siguiente');
    expect(await zoneState()).toEqual({ state: 'pending', job: next });
    await ctx.app.runtime.outbox.drain();
    expect(await zoneState()).toEqual({ state: 'ready', job: next });
    expect(await served()).toEqual(expect.arrayContaining(['perdido.zona.es.', 'siguiente.zona.es.']));
    expect(await statusOf(ctx, failed)).toBe('failed');
  });

  it('refuses the retry to a reader (403), to users without the DNS area (404) and under another service (404)', async () => {
    const job = await create('vetado');
    await failZone(job);
    expect((await call('r', `job/${job}/retry/`, {})).status).toBe(403);
    expect((await call('nodns', `job/${job}/retry/`, {})).status).toBe(404);
    expect((await call('sitesonly', `job/${job}/retry/`, {})).status).toBe(404);
    expect((await call('w', `job/${job}/retry/`, {}, account.items['otra.es'])).status).toBe(404);
    expect(await zoneState()).toEqual({ state: 'failed', job });
  });
});
