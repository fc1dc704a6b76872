import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Account, createAccount } from '../fixtures.ts';
import { packageFile, tarGz, zip } from '../installer/archives.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { caller, type Headers, SITES_ITEMS } from './helpers.ts';

// The panel's own catalogue: WordPress needs a database, DokuWiki does not.
const WORDPRESS = 1;
const JOOMLA = 2; // no package configured: unavailable
const PHPBB = 4; // configured with a checksum that does not match
const MEDIAWIKI = 5; // configured with an archive that tries to leave its folder
const DOKUWIKI = 6;

/** Packages built here, as an operator would keep them on the mirror, and the config naming them. */
async function packages() {
  const dir = mkdtempSync(path.join(tmpdir(), 'atalaya-packages-'));
  const wordpress = packageFile(
    path.join(dir, 'wordpress.tar.gz'),
    await tarGz([
      { name: 'wordpress/', dir: true },
      { name: 'wordpress/index.php', body: "<?php require __DIR__ . '/wp-blog-header.php';\n" },
      { name: 'wordpress/wp-config-sample.php', body: '<?php // sample\n' },
      { name: 'wordpress/wp-admin/install.php', body: '<?php // installer\n' },
    ]),
  );
  const dokuwiki = packageFile(
    path.join(dir, 'dokuwiki.zip'),
    zip([
      { name: 'dokuwiki-2024-02-06b/doku.php', body: '<?php // wiki\n' },
      { name: 'dokuwiki-2024-02-06b/install.php', body: '<?php // installer\n' },
    ]),
  );
  const phpbb = packageFile(path.join(dir, 'phpbb.zip'), zip([{ name: 'phpBB3/index.php', body: 'x' }]));
  const mediawiki = packageFile(
    path.join(dir, 'mediawiki.tar.gz'),
    await tarGz([
      { name: 'mediawiki-1.42.3/index.php', body: 'x' },
      { name: 'mediawiki-1.42.3/../../../../escaped.php', body: '<?php system($_GET["c"]);' },
    ]),
  );
  return {
    dir,
    config: {
      packages: {
        wordpress,
        dokuwiki,
        phpbb: { ...phpbb, sha256: 'a'.repeat(64) },
        mediawiki,
      },
    },
  };
}

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
  const wpInputs = {
    config_site_title: 'Mi blog',
    config_language: 'es_ES',
    config_admin_user: 'admin',
    config_admin_password: 'S3creta!clave',
    config_admin_email: 'ana@tienda.test',
    config_table_prefix: 'wp_',
  };
  const wordpressIn = (subpath: string, extra: Record<string, string> = {}) => ({
    subdomainID: String(siteId),
    applicationID: String(WORDPRESS),
    mysqlID: String(dbId),
    subpath,
    ...wpInputs,
    ...extra,
  });
  const statusOf = async (id: number) => (await api.get(`/service/${service}/installapp/${id}/?language=en`, owner)).body.data.installation;

  beforeAll(async () => {
    const offered = await packages();
    ctx = await openTestApp(kind, { 'drivers.installer': offered.config });
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

  it('lists the real catalogue in the user’s language, with licences, logos and what the operator has not configured as unavailable', async () => {
    const res = await api.get('/hostingapplication/list/', owner);
    const { apps, token } = res.body.data;
    expect(token).toBe('/p247/hostingapplication/');
    const byId = (id: number) => apps.find((a: { id: number }) => a.id === id);
    expect(byId(WORDPRESS)).toMatchObject({
      softName: 'WordPress',
      version: '6.1.9',
      category: 'blogs',
      licence: 'GPL-2.0-or-later',
      isBBDDApplication: true,
      available: true,
    });
    expect(byId(DOKUWIKI)).toMatchObject({ isBBDDApplication: false, available: true });
    expect(byId(JOOMLA)).toMatchObject({ softName: 'Joomla!', available: false });
    expect(byId(WORDPRESS).installConfig[0].inputs.find((i: { name: string }) => i.name === 'language').options).toHaveLength(3);
    const en = await api.get('/hostingapplication/list/?language=en', owner);
    expect(en.body.data.apps[0].installConfig[0].title).toBe('Site');
    const logo = await ctx.app.inject({ method: 'GET', url: `${token}${WORDPRESS}/logo/` });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toContain('image/svg+xml');
    expect(logo.headers['content-security-policy']).toContain('sandbox');
    expect((await ctx.app.inject({ method: 'GET', url: `${token}999/logo/` })).statusCode).toBe(404);
  });

  it('installs WordPress from its package as a job: its files in the folder and a wp-config.php from the answers', async () => {
    const res = await install(wordpressIn('/blog'));
    expect(res.status, JSON.stringify(res.body.system)).toBe(200);
    const installation = res.body.data.installation;
    expect(installation).toMatchObject({
      status: 'pending',
      progress: 0,
      url: 'http://www.tienda.test/blog/',
      fullName: 'WordPress 6.1.9',
    });
    const job = await ctx.store.selectFrom('job').select('payload').where('id', '=', res.body.system.job).executeTakeFirstOrThrow();
    expect(job.payload).not.toContain('S3creta');
    await ctx.app.runtime.outbox.drain();
    expect(await statusOf(installation.id)).toMatchObject({ status: 'done', progress: 100, error: null });
    const dir = path.join(webRoot(), 'public_html', 'blog');
    expect(readdirSync(dir).sort()).toEqual(['index.php', 'wp-admin', 'wp-config-sample.php', 'wp-config.php']);
    const config = readFileSync(path.join(dir, 'wp-config.php'), 'utf8');
    expect(config).toContain("define( 'DB_PASSWORD', 'Db-pass-123' );");
    expect(config).toContain("$table_prefix = 'wp_';");
    const salts = [...config.matchAll(/define\( '(?:AUTH|SECURE_AUTH|LOGGED_IN|NONCE)_(?:KEY|SALT)', '((?:[^'\\]|\\.)*)' \);/g)].map(
      (m) => m[1],
    );
    expect(salts).toHaveLength(8);
    expect(new Set(salts).size).toBe(8);
    expect(config).not.toContain('S3creta');
    // The working folder the files were unpacked into is gone.
    expect(readdirSync(webRoot()).filter((n) => n.startsWith('.atalaya'))).toEqual([]);
  });

  it('refuses a second install into the same path, and a folder with files unless the user confirms overwriting it', async () => {
    expect((await install(wordpressIn('blog'))).body.system.inputs).toEqual(['subpath']);
    const dir = path.join(webRoot(), 'public_html', 'mine');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'keep.html'), 'my page');
    const refused = await install(wordpressIn('mine'));
    await ctx.app.runtime.outbox.drain();
    expect(await statusOf(refused.body.data.installation.id)).toMatchObject({
      status: 'failed',
      error: 'The target folder is not empty: tick “Overwrite” to replace its content',
    });
    expect(readdirSync(dir)).toEqual(['keep.html']);
    const replaced = await install(wordpressIn('mine', { overwrite: '1' }));
    await ctx.app.runtime.outbox.drain();
    expect(await statusOf(replaced.body.data.installation.id)).toMatchObject({ status: 'done' });
    expect(existsSync(path.join(dir, 'keep.html'))).toBe(false);
    expect(existsSync(path.join(dir, 'wp-config.php'))).toBe(true);
  });

  it('installs an app without a database from a zip and ignores mysqlID for it', async () => {
    const res = await install({ subdomainID: String(siteId), applicationID: String(DOKUWIKI), mysqlID: '', subpath: 'wiki' });
    expect(res.status, JSON.stringify(res.body.system)).toBe(200);
    await ctx.app.runtime.outbox.drain();
    expect(readdirSync(path.join(webRoot(), 'public_html', 'wiki')).sort()).toEqual(['doku.php', 'install.php']);
  });

  it('fails a package whose SHA-256 differs before unpacking anything, and one that tries to leave its folder, leaving nothing', async () => {
    const tampered = await install({ subdomainID: String(siteId), applicationID: String(PHPBB), mysqlID: String(dbId), subpath: 'forum' });
    const hostile = await install({ subdomainID: String(siteId), applicationID: String(MEDIAWIKI), mysqlID: String(dbId), subpath: 'w' });
    await ctx.app.runtime.outbox.drain();
    expect(await statusOf(tampered.body.data.installation.id)).toMatchObject({
      status: 'failed',
      error: 'The application’s package does not match its SHA-256 checksum: the provider must check it',
    });
    expect(await statusOf(hostile.body.data.installation.id)).toMatchObject({
      status: 'failed',
      error: 'The application’s package holds entries that would be written outside its folder, or links, and was refused',
    });
    expect(existsSync(path.join(webRoot(), 'public_html', 'forum'))).toBe(false);
    expect(existsSync(path.join(webRoot(), 'public_html', 'w'))).toBe(false);
    expect(readdirSync(webRoot()).filter((n) => n.startsWith('.atalaya'))).toEqual([]);
    for (const up of ['', '..', '../..', '../../..']) expect(existsSync(path.join(webRoot(), up, 'escaped.php')), up).toBe(false);
  });

  it('fails the job of an install refused for good at its first try, with its reason: a folder a customer linked outside the web root', async () => {
    const outside = mkdtempSync(path.join(tmpdir(), 'atalaya-outside-'));
    mkdirSync(path.join(webRoot(), 'public_html'), { recursive: true });
    symlinkSync(outside, path.join(webRoot(), 'public_html', 'linked'));
    const res = await install({ subdomainID: String(siteId), applicationID: String(DOKUWIKI), subpath: 'linked/wiki' });
    expect(res.status, JSON.stringify(res.body.system)).toBe(200);
    await ctx.app.runtime.outbox.drain();
    const { job_id } = await ctx.store
      .selectFrom('installation')
      .select('job_id')
      .where('id', '=', res.body.data.installation.id)
      .executeTakeFirstOrThrow();
    const job = await ctx.store.selectFrom('job').selectAll().where('id', '=', job_id!).executeTakeFirstOrThrow();
    expect([job.status, job.attempts, job.last_error]).toEqual(['failed', 1, 'path leaves its root through a link']);
    expect(await statusOf(res.body.data.installation.id)).toMatchObject({
      status: 'failed',
      error: 'Invalid folder: it must stay inside the web space',
    });
    expect(readdirSync(outside)).toEqual([]);
  });

  it('refuses an application whose package the operator has not configured', async () => {
    const res = await install({ subdomainID: String(siteId), applicationID: String(JOOMLA), mysqlID: String(dbId), subpath: 'j' });
    expect(res.status).toBe(400);
    expect(res.body.system.inputs).toEqual(['applicationID']);
  });

  it('enforces required inputs, select options, the application’s own rules and the database, all errors at once', async () => {
    const res = await install({
      subdomainID: String(siteId),
      applicationID: String(WORDPRESS),
      mysqlID: String(dbId),
      subpath: 'x',
      config_language: 'fr_FR',
      config_admin_email: 'not-an-address',
      config_table_prefix: "wp'; DROP",
    });
    expect(res.status).toBe(400);
    expect(res.body.system.inputs).toEqual([
      'config_site_title',
      'config_language',
      'config_admin_user',
      'config_admin_password',
      'config_admin_email',
      'config_table_prefix',
    ]);
    // The longest prefix WordPress takes here passes; one more character does not.
    const prefixOf = async (prefix: string) =>
      (await install(wordpressIn('x', { config_table_prefix: prefix, config_admin_user: '' }))).body.system.inputs;
    expect(await prefixOf('a'.repeat(20))).toEqual(['config_admin_user']);
    expect(await prefixOf('a'.repeat(21))).toEqual(['config_admin_user', 'config_table_prefix']);
    const noDb = await install({ ...wordpressIn('x'), mysqlID: '' });
    expect(noDb.body.system.inputs).toEqual(['mysqlID']);
    const unknown = await install({ subdomainID: String(siteId), applicationID: '999', subpath: 'x' });
    expect(unknown.body.system.inputs).toEqual(['applicationID']);
    for (const subpath of ['../../etc', 'a/../..', 'x\\y']) {
      const bad = await install({ subdomainID: String(siteId), applicationID: String(DOKUWIKI), subpath });
      expect(bad.body.system.inputs, subpath).toEqual(['subpath']);
    }
  });

  it('checks every child id against the service (404)', async () => {
    const otherDb = await api.post(`/service/${other}/ddbb/create/`, owner, { password: 'Db-pass-456' });
    const foreignDb = otherDb.body.data.ddbb.id;
    expect((await install({ ...wordpressIn('f'), mysqlID: String(foreignDb) })).status).toBe(404);
    expect((await install(wordpressIn('f'), owner, other)).status).toBe(404);
    const first = (await ctx.store.selectFrom('installation').select('id').executeTakeFirstOrThrow()).id;
    expect((await api.get(`/service/${other}/installapp/${first}/`, owner)).status).toBe(404);
    const parked = { subdomainID: String(siteId), applicationID: String(DOKUWIKI), subpath: 'p' };
    expect((await install(parked, owner, account.items['aparcado.test'])).status).toBe(404);
  });

  it('needs write on FTP, databases and sites to install', async () => {
    const fields = { subdomainID: String(siteId), applicationID: String(DOKUWIKI), subpath: 'perm' };
    for (const user of ['noftp', 'nodb', 'reader']) expect((await install(fields, await account.as(user))).status, user).toBe(403);
    expect((await api.get('/hostingapplication/list/', await account.as('reader'))).status).toBe(200);
  });

  it('waits for a database still being created, then installs', async () => {
    const db = (await api.post(`/service/${service}/ddbb/create/`, owner, { password: 'Db-pass-789' })).body.data.ddbb.id;
    const res = await install({ ...wordpressIn('later'), mysqlID: String(db) });
    await ctx.app.runtime.outbox.drain();
    expect((await statusOf(res.body.data.installation.id)).status).toBe('done');
  });
});
