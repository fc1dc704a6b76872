import { afterAll, beforeAll, expect, it } from 'vitest';
import { renewalBackoffSeconds, renewDue } from '../../src/modules/sites/acme/renewal.ts';
import { openStore, type Store } from '../../src/store/db.ts';
import { type Account, createAccount } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { leafCertificate } from './certs.ts';
import { caller, type Headers } from './helpers.ts';

/** One renewal sweep at `at`, as the schedule runs it (in a transaction). */
const sweep = (store: Store, at: number) => store.transaction().execute((trx) => renewDue(trx, at));

/** The free-certificate switch through the API with the local drivers; the issuance itself is proven against pebble in test/acme. */
describeStores('the free-certificate switch of a site on %s', (kind) => {
  let ctx: TestContext;
  let account: Account;
  let owner: Headers;
  let reader: Headers;
  let service: number;
  let siteId: number;
  const api = caller(() => ctx);
  const url = () => `/service/${service}/subdomain/${siteId}/acme/`;
  const jobOf = (id: number) => ctx.store.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    account = await createAccount(ctx.store, {
      users: { owner: 'all=write', reader: 'all=read' },
      items: [{ reference: 'tienda.test', service: 'normal' }],
    });
    owner = await account.as('owner');
    reader = await account.as('reader');
    service = account.items['tienda.test'];
    const created = await api.post(`/service/${service}/subdomain/create/`, owner, { subDomain: 'www', folder: 'www', SSLActive: '0' });
    siteId = created.body.data.subdomain.id;
  });
  afterAll(() => ctx.close());

  it('is refused to a reader with 403 and starts nothing', async () => {
    const res = await api.post(url(), reader, { active: '1', wildcard: '0' });
    expect(res.status).toBe(403);
    expect(await ctx.store.selectFrom('job').select('id').where('kind', '=', 'sites.acme.issue').execute()).toEqual([]);
  });

  it('refuses the wildcard with a translated field error while the service has no DNS zone in the panel', async () => {
    const res = await api.post(url(), owner, { active: '1', wildcard: '1' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('El comodín necesita que la zona DNS de tienda.test esté en el panel');
  });

  it('switched on starts one issuance job that the site shows as working from its first step, and a second request is refused while it runs', async () => {
    const res = await api.post(url(), owner, { active: '1', wildcard: '0' });
    expect(res.status).toBe(200);
    expect(res.body.data.subdomain.ssl).toMatchObject({
      enabled: false,
      source: 'upload',
      acme: { enabled: true, wildcard: false, status: 'working', step: 'order', error: null, renewAt: null },
    });
    const job = await jobOf(res.body.system.job!);
    expect([job.kind, job.status, JSON.parse(job.payload)]).toEqual(['sites.acme.issue', 'pending', { siteId }]);
    const again = await api.post(url(), owner, { active: '1', wildcard: '0' });
    expect(again.status).toBe(400);
    expect(JSON.stringify(again.body)).toContain('Ya se está pidiendo un certificado para este sitio');
  });

  it('switched off stops the free certificate: a job still queued then changes nothing', async () => {
    const res = await api.post(url(), owner, { active: '0', wildcard: '0' });
    expect(res.status).toBe(200);
    expect(res.body.data.subdomain.ssl.acme).toMatchObject({ enabled: false, status: 'off' });
    await ctx.app.runtime.outbox.drain();
    const site = await ctx.store.selectFrom('site').selectAll().where('id', '=', siteId).executeTakeFirstOrThrow();
    expect([site.cert, site.cert_source, site.ssl_enabled]).toEqual(['', 'upload', 0]);
  });

  it('is switched off by saving the site with SSL off, so no renewal switches SSL back on', async () => {
    await ctx.store.updateTable('site').set({ acme_enabled: 1 }).where('id', '=', siteId).execute();
    const res = await api.post(`/service/${service}/subdomain/${siteId}/save/`, owner, { folder: 'www', SSLActive: '0' });
    expect(res.status).toBe(200);
    expect(res.body.data.subdomain.ssl).toMatchObject({ enabled: false, acme: { enabled: false, status: 'off' } });
  });

  it('is switched off by uploading a certificate, which then is the one served', async () => {
    await api.post(url(), owner, { active: '1', wildcard: '0' });
    await ctx.store.updateTable('job').set({ status: 'failed' }).where('kind', '=', 'sites.acme.issue').execute();
    const pem = leafCertificate(['www.tienda.test']);
    const res = await api.upload(
      `/service/${service}/subdomain/${siteId}/save/`,
      owner,
      { folder: 'www', SSLActive: '1' },
      {
        cert: pem.cert,
        certkey: pem.key,
        certchain: pem.chain,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.subdomain.ssl).toMatchObject({ enabled: true, source: 'upload', acme: { enabled: false, status: 'off' } });
  });
});

describeStores('the renewal of free certificates on %s', (kind) => {
  let ctx: TestContext;
  let service: number;
  let siteId: number;
  const row = () => ctx.store.selectFrom('site').selectAll().where('id', '=', siteId).executeTakeFirstOrThrow();

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    const account = await createAccount(ctx.store, {
      users: { owner: 'all=write' },
      items: [{ reference: 'tienda.test', service: 'normal' }],
    });
    service = account.items['tienda.test'];
    const created = await caller(() => ctx).post(`/service/${service}/subdomain/create/`, await account.as('owner'), {
      subDomain: 'www',
      folder: 'www',
      SSLActive: '0',
    });
    siteId = created.body.data.subdomain.id;
    // As an issuance leaves it: a free certificate whose renewal falls due at t=1000.
    await ctx.store
      .updateTable('site')
      .set({ acme_enabled: 1, cert_source: 'acme', acme_renew_at: 1000 })
      .where('id', '=', siteId)
      .execute();
  });
  afterAll(() => ctx.close());

  it('starts nothing before the certificate is due', async () => {
    expect(await sweep(ctx.store, 999)).toEqual([]);
  });

  it('starts exactly one issuance when two processes sweep at once, and backs off the next attempt', async () => {
    // PostgreSQL: a second process's own pool; SQLite is one process, so a second sweep on its store.
    const second = kind === 'postgres' ? await openStore({ databaseUrl: ctx.config.databaseUrl, dataDir: ctx.config.dataDir }) : null;
    try {
      const started = await Promise.all([sweep(ctx.store, 1000), sweep(second ?? ctx.store, 1000)]);
      expect(started.flat()).toEqual([siteId]);
    } finally {
      await second?.destroy();
    }
    const site = await row();
    expect([site.acme_failures, site.acme_renew_at]).toEqual([1, 1000 + 3600]);
    const jobs = await ctx.store.selectFrom('job').select(['id', 'payload']).where('kind', '=', 'sites.acme.issue').execute();
    expect(jobs.map((j) => [j.id, JSON.parse(j.payload)])).toEqual([[site.acme_job_id, { siteId }]]);
    // While that issuance is queued, a later sweep leaves the site alone.
    expect(await sweep(ctx.store, 10_000)).toEqual([]);
  });

  it('after a failed attempt tries again only when the back-off has passed, doubling it each time', async () => {
    await ctx.store.updateTable('job').set({ status: 'failed' }).where('kind', '=', 'sites.acme.issue').execute();
    expect(await sweep(ctx.store, 1000 + 3599)).toEqual([]);
    expect(await sweep(ctx.store, 1000 + 3600)).toEqual([siteId]);
    expect((await row()).acme_renew_at).toBe(1000 + 3600 + 7200);
    expect(renewalBackoffSeconds(20)).toBe(24 * 3600);
  });
});
