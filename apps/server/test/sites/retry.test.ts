import type { Subdomain } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readLocalSite } from '../../src/drivers/sites/local.ts';
import { failForGood, statusOf } from '../failing.ts';
import { type Account, createAccount } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { caller, type Headers, SITES_ITEMS } from './helpers.ts';

describeStores("a user's retry of a site's failed apply on %s", (kind) => {
  let ctx: TestContext;
  let account: Account;
  let owner: Headers;
  let service: number;
  const api = caller(() => ctx);

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    account = await createAccount(ctx.store, {
      users: {
        owner: 'all=write',
        reader: 'all=read',
        redirects: 'service_redirects=write',
        nosites: 'all=write,service_subdomains=disabled,service_redirects=disabled',
        dnsonly: 'service_dnszone=write',
      },
      items: SITES_ITEMS,
    });
    owner = await account.as('owner');
    service = account.items['tienda.test'];
  });
  afterAll(() => ctx.close());

  /** A site whose host the web server refused until the outbox gave up: its id and that job. */
  async function failedSite(name: string) {
    const created = await api.post(`/service/${service}/subdomain/create/`, owner, { subDomain: name, folder: '/', SSLActive: '0' });
    const job = created.body.system.job as number;
    const outcome = await failForGood(ctx, job, ctx.app.runtime.drivers.sites, ['applySite'], 'nginx -t: configuration test failed');
    expect(outcome).toEqual({ status: 'failed', last_error: 'nginx -t: configuration test failed' });
    return { id: created.body.data.subdomain.id as number, job };
  }
  const listed = async (id: number) =>
    ((await api.get(`/service/${service}/subdomain/list/`, owner)).body.data.subdomains as Subdomain[]).find((s) => s.id === id);
  const retry = async (user: string, job: number, item = service) =>
    (await api.post(`/service/${item}/job/${job}/retry/`, await account.as(user), {})).status;

  it('shows a site whose apply failed as failed with that job, and a writer retries it until the web server holds it', async () => {
    const { id, job } = await failedSite('caida');
    expect(await listed(id)).toMatchObject({ state: 'failed', job });
    expect((await api.get(`/service/${service}/subdomain/${id}/`, owner)).body.data.subdomain).toMatchObject({ state: 'failed', job });
    expect(readLocalSite(ctx.config.dataDir, `site-${id}`)).toBeNull();

    const retried = await api.post(`/service/${service}/job/${job}/retry/`, owner, {});
    expect(retried.status).toBe(200);
    expect(retried.body.system).toMatchObject({ job, info: ['Se volverá a aplicar el cambio'] });
    expect(await listed(id)).toMatchObject({ state: 'pending', job });
    await ctx.app.runtime.outbox.drain();
    expect(await listed(id)).toMatchObject({ state: 'ready', job });
    expect(readLocalSite(ctx.config.dataDir, `site-${id}`)).toMatchObject({ host: 'caida.tienda.test' });
  });

  it("shows a site as ready once a later change of it applied, whatever the failure's job", async () => {
    const { id, job } = await failedSite('superada');
    const saved = await api.post(`/service/${service}/subdomain/${id}/save/`, owner, { folder: '/otra', SSLActive: '0' });
    expect(saved.body.data.subdomain).toMatchObject({ state: 'pending', job: saved.body.system.job });
    await ctx.app.runtime.outbox.drain();
    expect(await listed(id)).toMatchObject({ state: 'ready', job: saved.body.system.job });
    expect(await statusOf(ctx, job)).toBe('failed');
  });

  it('lets a writer of redirections retry too, and refuses a reader (403) and a user without the sites areas (404)', async () => {
    const { id, job } = await failedSite('vetada');
    expect(await retry('reader', job)).toBe(403);
    expect(await retry('nosites', job)).toBe(404);
    expect(await retry('dnsonly', job)).toBe(404);
    expect(await listed(id)).toMatchObject({ state: 'failed', job });
    expect(await retry('redirects', job)).toBe(200);
    expect(await statusOf(ctx, job)).toBe('pending');
    await ctx.app.runtime.outbox.drain();
    expect(await listed(id)).toMatchObject({ state: 'ready', job });
  });

  it("answers 404 for a site's job retried under another service", async () => {
    const { job } = await failedSite('ajena');
    expect(await retry('owner', job, account.items['otra.test'])).toBe(404);
    expect(await statusOf(ctx, job)).toBe('failed');
  });

  it('shows a removed site whose host the web server kept as a failed removal, and a writer retries it until the host is gone', async () => {
    const created = await api.post(`/service/${service}/subdomain/create/`, owner, { subDomain: 'borrada', folder: '/', SSLActive: '0' });
    const id = created.body.data.subdomain.id as number;
    await ctx.app.runtime.outbox.drain();
    const before = (await api.get(`/service/${service}/subdomain/list/`, owner)).body.data;
    expect(before.removed).toEqual({ state: 'ready', job: null });
    const deleted = await api.get(`/service/${service}/subdomain/${id}/delete/`, owner);
    const job = deleted.body.system.job as number;
    await failForGood(ctx, job, ctx.app.runtime.drivers.sites, ['removeSite'], 'nginx: reload failed');
    const list = (await api.get(`/service/${service}/subdomain/list/`, owner)).body.data;
    expect(list.subdomains.map((s: Subdomain) => s.id)).not.toContain(id);
    expect(list.removed).toEqual({ state: 'failed', job });
    expect(readLocalSite(ctx.config.dataDir, `site-${id}`)).toMatchObject({ host: 'borrada.tienda.test' });

    expect(await retry('reader', job)).toBe(403);
    expect(await retry('owner', job)).toBe(200);
    expect((await api.get(`/service/${service}/subdomain/list/`, owner)).body.data.removed).toEqual({ state: 'pending', job });
    await ctx.app.runtime.outbox.drain();
    expect((await api.get(`/service/${service}/subdomain/list/`, owner)).body.data.removed).toEqual({ state: 'ready', job: null });
    expect(readLocalSite(ctx.config.dataDir, `site-${id}`)).toBeNull();
  });
});
