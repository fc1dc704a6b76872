import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ServiceView, Subdomain } from '@atalaya/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcile } from '../../src/cli/reconcile.ts';
import { MAX_ATTEMPTS } from '../../src/outbox/outbox.ts';
import { createSecrets, loadSecretKey } from '../../src/secrets.ts';
import { leafCertificate, type Pem } from '../sites/certs.ts';
import { eventually, missingBinaries } from './harness/common.ts';
import { NGINX, type NginxHarness, startNginx } from './harness/nginx.ts';
import { exec, get } from './http.ts';
import { curlTls, nginxOverrides, openRealApp, REFERENCE, type RealApp, testCaFile } from './through-api.ts';

const skip = missingBinaries(NGINX, '/usr/bin/openssl', '/usr/bin/curl');
const SHOP = `shop.${REFERENCE}`;
const BLOG = `blog.${REFERENCE}`;

describe.skipIf(skip)('nginx refusing a change made through the API, and reconcile of the sites', () => {
  let h: NginxHarness;
  let app: RealApp;
  let shopId: number;
  let blogId: number;
  let phpJob: number;
  let cert: Pem;
  const sitesDir = () => path.join(h.dir, 'atalaya', 'sites');
  /** A file of the operator's own that nginx -t refuses, in the directory nginx includes. */
  const broken = () => path.join(sitesDir(), 'zz-operator.conf');
  const webRoot = () => path.join(h.dir, 'www', REFERENCE);
  const confOf = (id: number) => readFile(path.join(sitesDir(), `site-${id}.conf`), 'utf8');
  const https = (host: string) => curlTls(h, host);
  const serviceView = async () => (await app.call<{ service: ServiceView }>(`/service/${app.id}/`)).body.data.service;
  const lastError = async (job: number) =>
    (await app.ctx.store.selectFrom('job').select('last_error').where('id', '=', job).executeTakeFirstOrThrow()).last_error;

  beforeAll(async () => {
    // Made here, not at collection, so a machine without openssl skips instead of failing.
    cert = leafCertificate([SHOP]);
    h = await startNginx();
    await writeFile(testCaFile(h), cert.chain);
    app = await openRealApp(nginxOverrides(h));
    const created = await app.upload<{ subdomain: Subdomain }>(
      `/service/${app.id}/subdomain/create/`,
      { subDomain: 'shop', folder: 'shop', SSLActive: '1' },
      { cert: cert.cert, certkey: cert.key, certchain: cert.chain },
    );
    shopId = created.body.data.subdomain.id;
    await app.drain();
    await writeFile(path.join(webRoot(), 'shop', 'index.html'), 'the shop\n');
    await mkdir(path.join(webRoot(), 'blog'), { recursive: true });
    await writeFile(path.join(webRoot(), 'blog', 'index.html'), 'the blog\n');
    await eventually(async () => (await https(SHOP)).stdout === 'the shop\n');
  });
  afterAll(async () => {
    await app?.close();
    await h?.stop();
  });

  it('a change nginx refuses stays pending in the API, and the vhosts and the served sites stay as they were', async () => {
    const before = await confOf(shopId);
    await writeFile(broken(), 'this is not nginx;\n');
    const php = await app.call<{ service: ServiceView }>(`/service/${app.id}/php/`, { phpVersion: '8.1' });
    expect(php.status).toBe(200);
    phpJob = php.body.system.job!;
    const blog = await app.call<{ subdomain: Subdomain }>(`/service/${app.id}/subdomain/create/`, {
      subDomain: 'blog',
      folder: 'blog',
      SSLActive: '0',
    });
    blogId = blog.body.data.subdomain.id;
    await app.drain();

    expect(await serviceView()).toMatchObject({ phpversion: '8.1', state: 'pending', job: phpJob });
    // The item's jobs apply in commit order: the PHP change waits behind the sites' re-apply it
    // queued first, which carries nginx's complaint.
    const ahead = await app.ctx.store
      .selectFrom('job')
      .select('id')
      .where('item_id', '=', app.id)
      .where('status', '=', 'pending')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(ahead.id).toBeLessThan(phpJob);
    expect(await lastError(ahead.id)).toMatch(/nginx refused the configuration/);
    expect(await app.jobStatus(blog.body.system.job)).toBe('pending');
    // Nothing half applied: no vhost of the new site, the old one untouched, both still answered as before.
    expect(existsSync(path.join(sitesDir(), `site-${blogId}.conf`))).toBe(false);
    expect(await confOf(shopId)).toBe(before);
    expect((await get(h.httpPort, BLOG)).status).toBe(404);
    expect((await https(SHOP)).stdout).toBe('the shop\n');
  });

  it('a job that keeps failing ends failed, and the next changes after the fix bring nginx in line', async () => {
    // Each job ahead of it in the item's order fails its attempts first.
    for (let i = 1; i < 6 * MAX_ATTEMPTS && (await app.jobStatus(phpJob)) === 'pending'; i++) await app.retry();
    expect(await serviceView()).toMatchObject({ state: 'failed', job: phpJob });
    expect(await confOf(shopId)).toContain(`php${app.ctx.config.hosting.defaultPhpVersion}-fpm.sock`);

    await rm(broken());
    const php = await app.call<{ service: ServiceView }>(`/service/${app.id}/php/`, { phpVersion: 'default' });
    const blog = await app.call(`/service/${app.id}/subdomain/${blogId}/save/`, { folder: 'blog', SSLActive: '0' });
    expect([php.status, blog.status]).toEqual([200, 200]);
    // The blog's first job still waits out its back-off ahead of these in the item's order.
    await app.retry();
    expect(await serviceView()).toMatchObject({ phpversion: 'default', state: 'ready' });
    expect(await app.jobStatus(blog.body.system.job)).toBe('done');
    await eventually(async () => (await get(h.httpPort, BLOG)).body === 'the blog\n');
    expect(await confOf(blogId)).toContain(`php${app.ctx.config.hosting.defaultPhpVersion}-fpm.sock`);
    expect((await https(SHOP)).stdout).toBe('the shop\n');
  });

  it('reconcile reports a vhost removed and one added behind the panel, and --repair restores the site with its certificate', async () => {
    const secrets = createSecrets(loadSecretKey(app.ctx.config.dataDir));
    expect((await reconcile(app.ctx.store, app.ctx.config, secrets, false)).differences).toEqual([]);
    // An operator deletes the shop's vhost and reloads; another host appears that the panel never made.
    await rm(path.join(sitesDir(), `site-${shopId}.conf`));
    expect((await exec(NGINX, ['-s', 'reload', '-c', path.join(h.dir, 'nginx.conf'), '-p', `${h.dir}/`])).code).toBe(0);
    await eventually(async () => (await get(h.httpPort, SHOP)).status === 404);
    const intruder = {
      key: 'site-999',
      serviceId: app.id,
      reference: REFERENCE,
      host: `intruso.${REFERENCE}`,
      folder: 'blog',
      ssl: null,
      redirections: [],
    };
    await h.backend.applySite({ ...intruder, service: { kind: 'normal', phpVersion: '8.2', parkingActive: false } });
    await eventually(async () => (await get(h.httpPort, `intruso.${REFERENCE}`)).status === 200);

    const { differences: found } = await reconcile(app.ctx.store, app.ctx.config, secrets, false);
    expect(found.map((d) => `${d.problem} ${d.subject}`).sort()).toEqual([
      `extra site-999 (intruso.${REFERENCE})`,
      `missing site-${shopId} (${SHOP})`,
    ]);
    expect((await get(h.httpPort, `intruso.${REFERENCE}`)).status).toBe(200); // a report changes nothing

    const { differences: repaired } = await reconcile(app.ctx.store, app.ctx.config, secrets, true);
    expect(repaired.map((d) => d.outcome)).toEqual(['repaired', 'repaired']);
    await eventually(async () => (await get(h.httpPort, `intruso.${REFERENCE}`)).status === 404);
    const secure = await https(SHOP);
    expect([secure.code, secure.stdout], secure.stderr).toEqual([0, 'the shop\n']);
    expect((await reconcile(app.ctx.store, app.ctx.config, secrets, false)).differences).toEqual([]);
  });
});
