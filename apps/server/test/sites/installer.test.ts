import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Account, createAccount } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { caller, type Headers, SITES_ITEMS } from './helpers.ts';

const BLOG_APP = 1; // Pluma: needs a database
const STATIC_APP = 7; // Vitrina: no database, js

describeStores('application installer on %s', (kind) => {
  let ctx: TestContext;
  let account: Account;
  let owner: Headers;
  let service: number;
  let other: number;
  let siteId: number;
  let dbId: number;
  const api = caller(() => ctx);
  const webRoot = () => path.join(ctx.config.dataDir, 'www', 'tienda.test');
  const blogInputs = {
    config_site_name: 'Mi <blog>',
    config_language: 'es_ES',
    config_admin_user: 'admin',
    config_admin_password: 'S3creta!clave',
    config_admin_email: 'ana@tienda.test',
  };

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    account = await createAccount(ctx.store, {
      users: { owner: 'all=write', noftp: 'all=write,service_ftp=read', nodb: 'all=write,service_ddbb=read', reader: 'all=read' },
      items: SITES_ITEMS,
    });
    owner = await account.as('owner');
    service = account.items['tienda.test'];
    other = account.items['otra.test'];
    siteId = (await api.post(`/service/${service}/subdomain/create/`, owner, { subDomain: 'www', folder: 'public_html' })).body.data
      .subdomain.id;
    const db = await api.post(`/service/${service}/ddbb/create/`, owner, { password: 'Db-pass-123' });
    expect(db.status, JSON.stringify(db.body.system)).toBe(200);
    dbId = db.body.data.ddbb.id;
  });
  afterAll(() => ctx.close());

  const install = (fields: Record<string, string>, headers = owner, id = service) =>
    api.post(`/service/${id}/installapp/`, headers, fields);

  it('lists the catalogue in the user’s language, with 26-category apps and logo URLs', async () => {
    const res = await api.get('/hostingapplication/list/', owner);
    const { apps, token } = res.body.data;
    expect(apps.length).toBeGreaterThanOrEqual(6);
    expect(token).toBe('/p247/hostingapplication/');
    const blog = apps.find((a: { id: number }) => a.id === BLOG_APP);
    expect(blog).toMatchObject({ softName: 'Pluma', category: 'blogs', type: 'php', isBBDDApplication: true, featured: true });
    expect(blog.installConfig[0].inputs.find((i: { name: string }) => i.name === 'language').options).toHaveLength(2);
    const en = await api.get('/hostingapplication/list/?language=en', owner);
    expect(en.body.data.apps[0].installConfig[0].title).toBe('Site');
    const logo = await ctx.app.inject({ method: 'GET', url: `${token}${BLOG_APP}/logo/` });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toContain('image/svg+xml');
    expect(logo.headers['content-security-policy']).toContain('sandbox');
    expect((await ctx.app.inject({ method: 'GET', url: `${token}999/logo/` })).statusCode).toBe(404);
  });

  it('installs an application with its database as a job with progress, writing files into the web root', async () => {
    const res = await install({
      subdomainID: String(siteId),
      applicationID: String(BLOG_APP),
      mysqlID: String(dbId),
      subpath: '/blog',
      ...blogInputs,
      config_auto_updates: '1',
    });
    expect(res.status, JSON.stringify(res.body.system)).toBe(200);
    const installation = res.body.data.installation;
    expect(installation).toMatchObject({ status: 'pending', progress: 0, url: 'http://www.tienda.test/blog/', fullName: 'Pluma 6.8' });
    expect(res.body.system.job).toBeGreaterThan(0);
    const job = await ctx.store.selectFrom('job').select('payload').where('id', '=', res.body.system.job).executeTakeFirstOrThrow();
    expect(job.payload).not.toContain('S3creta');
    await ctx.app.runtime.outbox.drain();
    const done = await api.get(`/service/${service}/installapp/${installation.id}/`, owner);
    expect(done.body.data.installation).toMatchObject({ status: 'done', progress: 100, error: null });
    const dir = path.join(webRoot(), 'public_html', 'blog');
    expect(readFileSync(path.join(dir, 'index.php'), 'utf8')).toContain('Mi &lt;blog&gt;');
    const config = readFileSync(path.join(dir, 'config.php'), 'utf8');
    expect(config).toContain("'db_password' => 'Db-pass-123'");
    expect(config).toContain("'auto_updates' => '1'");
    expect(config).toContain("'sample_content' => '0'");
    expect(config).toContain("'table_prefix' => 'pl_'");
    expect(config).not.toContain('S3creta');
  });

  it('refuses a second install into the same path, and a folder that already holds an app', async () => {
    const again = await install({
      subdomainID: String(siteId),
      applicationID: String(BLOG_APP),
      mysqlID: String(dbId),
      subpath: 'blog',
      ...blogInputs,
    });
    expect(again.body.system.inputs).toEqual(['subpath']);
    // The same folder reached through another path spelling is caught by the installer itself.
    await ctx.store.updateTable('installation').set({ error: 'x' }).execute();
    const res = await install({
      subdomainID: String(siteId),
      applicationID: String(BLOG_APP),
      mysqlID: String(dbId),
      subpath: './blog/',
      ...blogInputs,
    });
    expect(res.status).toBe(200);
    await ctx.app.runtime.outbox.drain();
    const failed = await api.get(`/service/${service}/installapp/${res.body.data.installation.id}/?language=en`, owner);
    expect(failed.body.data.installation).toMatchObject({ status: 'failed', error: 'The target folder already holds an application' });
  });

  it('installs an app without a database and ignores mysqlID for it', async () => {
    const res = await install({
      subdomainID: String(siteId),
      applicationID: String(STATIC_APP),
      mysqlID: '',
      subpath: 'landing',
      config_site_name: 'Hola',
      config_language: 'en_US',
    });
    expect(res.status, JSON.stringify(res.body.system)).toBe(200);
    await ctx.app.runtime.outbox.drain();
    expect(existsSync(path.join(webRoot(), 'public_html', 'landing', 'index.html'))).toBe(true);
    expect(JSON.parse(readFileSync(path.join(webRoot(), 'public_html', 'landing', 'config.json'), 'utf8')).settings.language).toBe('en_US');
  });

  it('enforces required inputs, select options and the database, all errors at once', async () => {
    const res = await install({
      subdomainID: String(siteId),
      applicationID: String(BLOG_APP),
      mysqlID: String(dbId),
      subpath: 'x',
      config_language: 'fr_FR',
    });
    expect(res.status).toBe(400);
    expect(res.body.system.inputs).toEqual([
      'config_site_name',
      'config_language',
      'config_admin_user',
      'config_admin_password',
      'config_admin_email',
    ]);
    const noDb = await install({ subdomainID: String(siteId), applicationID: String(BLOG_APP), subpath: 'x', ...blogInputs });
    expect(noDb.body.system.inputs).toEqual(['mysqlID']);
    const unknown = await install({ subdomainID: String(siteId), applicationID: '999', subpath: 'x' });
    expect(unknown.body.system.inputs).toEqual(['applicationID']);
    for (const subpath of ['../../etc', 'a/../..', 'x\\y']) {
      const bad = await install({
        subdomainID: String(siteId),
        applicationID: String(STATIC_APP),
        subpath,
        config_site_name: 'a',
        config_language: 'es_ES',
      });
      expect(bad.body.system.inputs, subpath).toEqual(['subpath']);
    }
  });

  it('checks every child id against the service (404)', async () => {
    const otherDb = await api.post(`/service/${other}/ddbb/create/`, owner, { password: 'Db-pass-456' });
    const foreignDb = otherDb.body.data.ddbb.id;
    expect(
      (
        await install({
          subdomainID: String(siteId),
          applicationID: String(BLOG_APP),
          mysqlID: String(foreignDb),
          subpath: 'f',
          ...blogInputs,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await install(
          { subdomainID: String(siteId), applicationID: String(BLOG_APP), mysqlID: String(dbId), subpath: 'f', ...blogInputs },
          owner,
          other,
        )
      ).status,
    ).toBe(404);
    const first = (await ctx.store.selectFrom('installation').select('id').executeTakeFirstOrThrow()).id;
    expect((await api.get(`/service/${other}/installapp/${first}/`, owner)).status).toBe(404);
    expect(
      (
        await install(
          { subdomainID: String(siteId), applicationID: String(STATIC_APP), subpath: 'p' },
          owner,
          account.items['aparcado.test'],
        )
      ).status,
    ).toBe(404);
  });

  it('needs write on FTP, databases and sites to install', async () => {
    const fields = {
      subdomainID: String(siteId),
      applicationID: String(STATIC_APP),
      subpath: 'perm',
      config_site_name: 'a',
      config_language: 'es_ES',
    };
    for (const user of ['noftp', 'nodb', 'reader']) expect((await install(fields, await account.as(user))).status, user).toBe(403);
    expect((await api.get('/hostingapplication/list/', await account.as('reader'))).status).toBe(200);
  });

  it('waits for a database still being created, then installs', async () => {
    const db = (await api.post(`/service/${service}/ddbb/create/`, owner, { password: 'Db-pass-789' })).body.data.ddbb.id;
    const res = await install({
      subdomainID: String(siteId),
      applicationID: String(BLOG_APP),
      mysqlID: String(db),
      subpath: 'later',
      ...blogInputs,
    });
    await ctx.app.runtime.outbox.drain();
    expect((await api.get(`/service/${service}/installapp/${res.body.data.installation.id}/`, owner)).body.data.installation.status).toBe(
      'done',
    );
  });
});
