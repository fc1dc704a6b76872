import { X509Certificate } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ServiceView, Subdomain } from '@atalaya/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leafCertificate, type Pem } from '../sites/certs.ts';
import { eventually, missingBinaries } from './harness/common.ts';
import { NGINX, type NginxHarness, startNginx } from './harness/nginx.ts';
import { exec, get } from './http.ts';
import { curlTls, nginxOverrides, openRealApp, REFERENCE, type RealApp, testCaFile } from './through-api.ts';

const skip = missingBinaries(NGINX, '/usr/bin/openssl', '/usr/bin/curl');
const HOST = `shop.${REFERENCE}`;

describe.skipIf(skip)('sites, redirections, PHP and parking changed through the API reach a real nginx', () => {
  let h: NginxHarness;
  let app: RealApp;
  let siteId: number;
  let cert: Pem;
  const webRoot = () => path.join(h.dir, 'www', REFERENCE);
  const confOf = (id: number) => readFile(path.join(h.dir, 'atalaya', 'sites', `site-${id}.conf`), 'utf8');
  const https = (host: string, pathname = '/') => curlTls(h, host, pathname);
  const serviceView = async () => (await app.call<{ service: ServiceView }>(`/service/${app.id}/`)).body.data.service;

  beforeAll(async () => {
    // Made here, not at collection, so a machine without openssl skips instead of failing.
    cert = leafCertificate([HOST]);
    h = await startNginx();
    await writeFile(testCaFile(h), cert.chain);
    app = await openRealApp(nginxOverrides(h));
  });
  afterAll(async () => {
    await app?.close();
    await h?.stop();
  });

  it('a site created with an uploaded certificate serves its folder over HTTP and HTTPS with that certificate', async () => {
    const created = await app.upload<{ subdomain: Subdomain }>(
      `/service/${app.id}/subdomain/create/`,
      { subDomain: 'shop', folder: 'shop', SSLActive: '1' },
      { cert: cert.cert, certkey: cert.key, certchain: cert.chain },
    );
    expect(created.status).toBe(200);
    siteId = created.body.data.subdomain.id;
    await app.drain();
    expect(await app.jobStatus(created.body.system.job)).toBe('done');
    await writeFile(path.join(webRoot(), 'shop', 'index.html'), 'the shop\n');
    await eventually(async () => (await get(h.httpPort, HOST)).body === 'the shop\n');
    const secure = await https(HOST);
    expect([secure.code, secure.stdout], secure.stderr).toEqual([0, 'the shop\n']); // curl verified it against the test CA
    const shown = await exec('/usr/bin/openssl', ['s_client', '-connect', `127.0.0.1:${h.httpsPort}`, '-servername', HOST], '');
    const served = new X509Certificate(shown.stdout.slice(shown.stdout.indexOf('-----BEGIN CERTIFICATE-----')));
    expect(served.fingerprint256).toBe(new X509Certificate(cert.cert).fingerprint256);
    expect((await get(h.httpPort, `otro.${REFERENCE}`)).status).toBe(404);
  });

  it('a 301 redirection created through the API answers with its Location, the rest of the site unchanged', async () => {
    const form = {
      subDomain: 'shop',
      recurso: '/viejo',
      urlRedir: 'https://nuevo.example.org/landing?a=1',
      redirType: '301',
      iframeTitle: '',
      iframeDescription: '',
      iframeKeywords: '',
    };
    const created = await app.call(`/service/${app.id}/redirection/create/`, form);
    expect(created.status).toBe(200);
    await app.drain();
    expect(await app.jobStatus(created.body.system.job)).toBe('done');
    await eventually(async () => (await get(h.httpPort, HOST, '/viejo')).status === 301);
    expect((await get(h.httpPort, HOST, '/viejo')).headers.location).toBe('https://nuevo.example.org/landing?a=1');
    const overTls = await curlTls(h, HOST, '/viejo', ['-o', '/dev/null', '-w', '%{http_code} %{redirect_url}']);
    expect(overTls.stdout).toBe('301 https://nuevo.example.org/landing?a=1');
    expect((await get(h.httpPort, HOST)).body).toBe('the shop\n');
  });

  it("a PHP change and the parking toggle through the service's API rewrite the vhost", async () => {
    expect(await confOf(siteId)).toContain(`php${app.ctx.config.hosting.defaultPhpVersion}-fpm.sock`);
    const php = await app.call<{ service: ServiceView }>(`/service/${app.id}/php/`, { phpVersion: '7.4' });
    expect(php.status).toBe(200);
    expect(php.body.data.service.state).toBe('pending');
    await app.drain();
    expect(await serviceView()).toMatchObject({ phpversion: '7.4', state: 'ready' });
    expect(await confOf(siteId)).toContain(`fastcgi_pass "unix:${path.join(h.dir, 'php7.4-fpm.sock')}"`);

    await app.call(`/service/${app.id}/parking/active/`);
    await app.drain();
    expect(await serviceView()).toMatchObject({ parkingActive: true, state: 'ready' });
    await eventually(async () => (await get(h.httpPort, HOST)).body.includes(`<h1>${HOST}</h1>`));
    expect(await confOf(siteId)).not.toContain('fastcgi_pass'); // a parked host runs no PHP
    expect((await get(h.httpPort, HOST, '/viejo')).status).toBe(301); // redirections still apply

    await app.call(`/service/${app.id}/parking/disable/`);
    await app.drain();
    await eventually(async () => (await get(h.httpPort, HOST)).body === 'the shop\n');
    expect(await confOf(siteId)).toContain('php7.4-fpm.sock');
  });
});
