import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseView, Installation, Subdomain } from '@atalaya/contract';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPrefixed, MARIADB_ADMIN, mariadbReachable } from '../mariadb.ts';
import { skipReason } from '../skip.ts';
import { missingBinaries } from './harness/common.ts';
import { NGINX, type NginxHarness, startNginx } from './harness/nginx.ts';
import { PHP_FPM, type PhpFpmHarness, startPhpFpm } from './harness/php-fpm.ts';
import { exec, get } from './http.ts';
import { nginxOverrides, openRealApp, REFERENCE, type RealApp } from './through-api.ts';

const WORDPRESS_DIR = '/usr/share/wordpress';
const PHP = '/usr/bin/php';
const ADMIN = MARIADB_ADMIN;
const mariadb = await mariadbReachable();
const skip =
  missingBinaries(NGINX, PHP_FPM, PHP, '/usr/bin/tar', path.join(WORDPRESS_DIR, 'wp-load.php')) ??
  skipReason(mariadb ? null : 'MariaDB is not reachable at 127.0.0.1:3306 (root, no password): the WordPress installation test');
const HOST = `blog.${REFERENCE}`;
const WORDPRESS = 1;

/**
 * WordPress end to end: Debian's WordPress files packed as a plain archive (without Debian's own
 * wp-config.php, which reads /etc/wordpress), installed through the API with a new database on
 * the real MariaDB, then asked for through the real nginx and a php-fpm of the test's own.
 */
// WordPress's own installer takes seconds of PHP on a loaded machine: no timing is asserted, only a ceiling.
describe.skipIf(skip)('WordPress installed through the API runs on nginx, php-fpm and MariaDB', { timeout: 180_000 }, () => {
  let h: NginxHarness;
  let fpm: PhpFpmHarness;
  let app: RealApp;
  let siteId: number;
  let db: DatabaseView;
  const prefix = `t${randomBytes(3).toString('hex')}_`;
  const admin = () => mysql.createConnection(ADMIN);

  beforeAll(async () => {
    h = await startNginx();
    fpm = await startPhpFpm(h.dir, path.join(h.dir, 'php8.2-fpm.sock'));
    const archive = path.join(h.dir, 'wordpress.tar.gz');
    const packed = await exec('/usr/bin/tar', [
      '-czhf',
      archive,
      '-C',
      path.dirname(WORDPRESS_DIR),
      '--exclude=wordpress/wp-config.php',
      '--exclude=wordpress/.htaccess',
      path.basename(WORDPRESS_DIR),
    ]);
    expect(packed.code, packed.stderr).toBe(0);
    const sha256 = (await exec('/usr/bin/sha256sum', [archive])).stdout.split(' ')[0];
    app = await openRealApp({
      ...nginxOverrides(h),
      'drivers.databases': { driver: 'mariadb', dsn: 'mysql://root@127.0.0.1:3306', prefix },
      'drivers.installer': { packages: { wordpress: { path: archive, sha256 } }, php: PHP, databaseHost: '127.0.0.1' },
    });
    const site = await app.call<{ subdomain: Subdomain }>(`/service/${app.id}/subdomain/create/`, { subDomain: 'blog', folder: 'blog' });
    expect(site.status, JSON.stringify(site.body.system)).toBe(200);
    siteId = site.body.data.subdomain.id;
    const created = await app.call<{ ddbb: DatabaseView }>(`/service/${app.id}/ddbb/create/`, { password: 'Db-pass-1234' });
    expect(created.status, JSON.stringify(created.body.system)).toBe(200);
    db = created.body.data.ddbb;
    await app.drain();
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await fpm?.stop();
    await h?.stop();
    if (mariadb) await dropPrefixed(prefix);
  });

  const install = async (subpath: string, tablePrefix: string) => {
    const res = await app.call<{ installation: Installation }>(`/service/${app.id}/installapp/`, {
      subdomainID: String(siteId),
      applicationID: String(WORDPRESS),
      mysqlID: String(db.id),
      subpath,
      config_site_title: 'Diario de la tienda',
      config_language: 'es_ES',
      config_admin_user: 'ana',
      config_admin_password: 'Una-clave-larga-1',
      config_admin_email: `ana@${REFERENCE}`,
      config_table_prefix: tablePrefix,
    });
    expect(res.status, JSON.stringify(res.body.system)).toBe(200);
    await app.drain();
    const id = res.body.data.installation.id;
    return (await app.call<{ installation: Installation }>(`/service/${app.id}/installapp/${id}/?language=en`)).body.data.installation;
  };

  it('runs WordPress’s own installer: its tables and administrator are in the new database and nginx serves the installed site', async () => {
    expect(await install('', 'wp_')).toMatchObject({ status: 'done', progress: 100, error: null });
    const c = await admin();
    const [options] = await c.query(
      `SELECT option_value AS v FROM \`${db.bbdd}\`.wp_options WHERE option_name IN ('blogname', 'siteurl') ORDER BY option_name`,
    );
    const [users] = await c.query(`SELECT user_login AS login, user_email AS email FROM \`${db.bbdd}\`.wp_users`);
    await c.end();
    expect((options as { v: string }[]).map((o) => o.v)).toEqual(['Diario de la tienda', `http://${HOST}`]);
    expect(users).toEqual([{ login: 'ana', email: `ana@${REFERENCE}` }]);
    // WordPress itself, through nginx and php-fpm, knows it is installed: its installer offers no
    // form, only the way to sign in (in the site's language where Debian's wordpress-l10n is
    // installed, so no words are compared), and the sign-in page greets with the site's name.
    const installPage = await get(h.httpPort, HOST, '/wp-admin/install.php');
    expect(installPage.status, await logs()).toBe(200);
    expect(installPage.body).toContain(`http://${HOST}/wp-login.php`);
    expect(installPage.body).not.toMatch(/id="setup"|weblog_title/);
    const login = await get(h.httpPort, HOST, '/wp-login.php');
    expect(login.status).toBe(200);
    expect(login.body).toContain('Diario de la tienda');
    // A path that is no file reaches WordPress's front controller (its permalinks), not nginx's 404 page.
    const missing = await get(h.httpPort, HOST, '/una-entrada/');
    expect(missing.headers.link).toContain('https://api.w.org/');
  });

  it('refuses to install over tables of the same prefix, and leaves neither files nor tables of its own', async () => {
    const before = await tableCount();
    expect(before).toBeGreaterThan(5); // WordPress's tables, from the first install
    expect(await install('otro', 'wp_')).toMatchObject({
      status: 'failed',
      error: 'The database already holds tables with that prefix: choose another prefix or database',
    });
    expect(await tableCount()).toBe(before);
    const siteRoot = path.join(h.dir, 'www', REFERENCE, 'blog');
    expect(existsSync(path.join(siteRoot, 'otro'))).toBe(false);
    expect(readdirSync(path.join(h.dir, 'www', REFERENCE)).filter((n) => n.startsWith('.atalaya'))).toEqual([]);
  });

  it('a step failing after WordPress’s installer ran drops the tables it made and removes its files', async () => {
    const siteRoot = path.join(h.dir, 'www', REFERENCE, 'blog');
    // A file where the target's parent folder should be: everything runs, then the files cannot be moved in.
    writeFileSync(path.join(siteRoot, 'blocked'), 'a customer file');
    const before = await tableCount();
    const outcome = await install('blocked/wp', 'wq_');
    expect(outcome.status).not.toBe('done');
    expect(await tableCount()).toBe(before);
    const c = await admin();
    const [left] = await c.query(`SHOW TABLES FROM \`${db.bbdd}\` LIKE 'wq\\_%'`);
    await c.end();
    expect(left).toEqual([]);
    expect(readFileSync(path.join(siteRoot, 'blocked'), 'utf8')).toBe('a customer file');
    expect(readdirSync(path.join(h.dir, 'www', REFERENCE)).filter((n) => n.startsWith('.atalaya'))).toEqual([]);
    const job = await app.ctx.store.selectFrom('job').select('last_error').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(job.last_error).toMatch(/ENOTDIR|EEXIST/);
  });

  /** What nginx and php-fpm said, for a failing request's message. */
  const logs = async () =>
    (await exec('/bin/sh', ['-c', `tail -n 20 ${h.dir}/logs/*.error.log ${h.dir}/php-fpm.log ${h.dir}/error.log`])).stdout;

  async function tableCount() {
    const c = await admin();
    const [rows] = await c.query('SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = ?', [db.bbdd]);
    await c.end();
    return Number((rows as { n: number }[])[0].n);
  }
});
