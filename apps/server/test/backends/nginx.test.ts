import { X509Certificate } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tailErrorLog } from '../../src/drivers/real/nginx/errorlog.ts';
import { NginxRejected, nginxBackend } from '../../src/drivers/real/nginx/nginx.ts';
import type { SiteState } from '../../src/drivers/sites/interface.ts';
import { eventually, missingBinaries } from './harness/common.ts';
import { NGINX, type NginxHarness, startNginx } from './harness/nginx.ts';
import { exec, get } from './http.ts';

const skip = missingBinaries(NGINX, '/usr/bin/openssl', '/usr/bin/curl');

const site = (over: Partial<SiteState> = {}): SiteState => ({
  key: 'site-1',
  serviceId: 1,
  reference: 'example.test',
  host: 'blog.example.test',
  folder: 'blog',
  ssl: null,
  redirections: [],
  service: { kind: 'normal', phpVersion: '8.2', parkingActive: false },
  ...over,
});

async function makeCert(dir: string, host: string) {
  const key = path.join(dir, `${host}.key`);
  const cert = path.join(dir, `${host}.crt`);
  const r = await exec('/usr/bin/openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '2',
    '-subj',
    `/CN=${host}`,
    '-addext',
    `subjectAltName=DNS:${host}`,
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  if (r.code !== 0) throw new Error(r.stderr);
  return { cert: await readFile(cert, 'utf8'), key: await readFile(key, 'utf8'), file: cert };
}

describe.skipIf(skip)('the nginx backend against a real nginx on loopback', () => {
  let h: NginxHarness;
  const webRoot = () => path.join(h.dir, 'www', 'example.test');
  beforeAll(async () => {
    h = await startNginx();
  });
  afterAll(async () => h?.stop());

  it("serves the site's own file from its folder inside the service's web root", async () => {
    await mkdir(path.join(webRoot(), 'blog'), { recursive: true });
    await writeFile(path.join(webRoot(), 'blog', 'index.html'), 'hello from the blog\n');
    await h.backend.applySite(site());
    await eventually(async () => (await get(h.httpPort, 'blog.example.test')).body === 'hello from the blog\n');
    const conf = await readFile(path.join(h.dir, 'atalaya', 'sites', 'site-1.conf'), 'utf8');
    expect(conf).toContain(`fastcgi_pass "unix:${path.join(h.dir, 'php8.2-fpm.sock')}"`);
    expect(conf).toContain('try_files $uri $uri/ /index.php$is_args$args;');
    expect((await get(h.httpPort, 'other.example.test')).status).toBe(404);
  });

  it('answers 301 and 302 redirections with the right Location, and the frame page with escaped text', async () => {
    await h.backend.applySite(
      site({
        redirections: [
          { id: 1, origin: '/old', kind: '301', target: 'https://new.example.org/landing?a=1&b=$x', frame: null },
          { id: 2, origin: '/tmp', kind: '302', target: 'http://other.example.org/', frame: null },
          {
            id: 3,
            origin: '/promo',
            kind: 'frame',
            target: 'https://shop.example.org/"x',
            frame: { title: '<script>alert(1)</script>', description: 'a "quoted" desc', keywords: 'k1, k2 & k3' },
          },
        ],
      }),
    );
    await eventually(async () => (await get(h.httpPort, 'blog.example.test', '/old')).status === 301);
    expect((await get(h.httpPort, 'blog.example.test', '/old')).headers.location).toBe('https://new.example.org/landing?a=1&b=%24x');
    expect((await get(h.httpPort, 'blog.example.test', '/old/deeper')).status).toBe(301);
    const temporary = await get(h.httpPort, 'blog.example.test', '/tmp');
    expect([temporary.status, temporary.headers.location]).toEqual([302, 'http://other.example.org/']);
    const frame = await get(h.httpPort, 'blog.example.test', '/promo');
    expect(frame.status).toBe(200);
    expect(frame.headers['content-type']).toMatch(/text\/html/);
    expect(frame.body).toContain('<title>&#60;script&#62;alert(1)&#60;/script&#62;</title>');
    expect(frame.body).not.toContain('<script>');
    expect(frame.body).toContain('content="a &#34;quoted&#34; desc"');
    expect(frame.body).toContain('content="k1, k2 &#38; k3"');
    expect(frame.body).toContain('<iframe src="https://shop.example.org/%22x"');
    // The rest of the site is still the site.
    expect((await get(h.httpPort, 'blog.example.test', '/')).body).toBe('hello from the blog\n');
  });

  it('serves the parking page of a redirect-and-parking service and of a parked normal service', async () => {
    await h.backend.applySite(
      site({
        key: 'apex-2',
        serviceId: 2,
        reference: 'parked.test',
        host: 'parked.test',
        folder: null,
        service: { kind: 'parking', phpVersion: 'default', parkingActive: true },
      }),
    );
    await eventually(async () => (await get(h.httpPort, 'parked.test')).status === 200);
    expect((await get(h.httpPort, 'parked.test', '/any/path')).body).toContain('<h1>parked.test</h1>');

    await h.backend.applyService('example.test', { kind: 'normal', phpVersion: '7.4', parkingActive: true });
    await eventually(async () => (await get(h.httpPort, 'blog.example.test')).body.includes('<h1>blog.example.test</h1>'));
    const conf = await readFile(path.join(h.dir, 'atalaya', 'sites', 'site-1.conf'), 'utf8');
    expect(conf).not.toContain('fastcgi_pass'); // a parked host runs no PHP
    expect((await get(h.httpPort, 'blog.example.test', '/old')).status).toBe(301); // redirections still apply

    await h.backend.applyService('example.test', { kind: 'normal', phpVersion: '7.4', parkingActive: false });
    await eventually(async () => (await get(h.httpPort, 'blog.example.test')).body === 'hello from the blog\n');
    expect(await readFile(path.join(h.dir, 'atalaya', 'sites', 'site-1.conf'), 'utf8')).toContain('php7.4-fpm.sock');
  });

  it('answers HTTPS with the uploaded certificate, kept in files of mode 0600', async () => {
    const pem = await makeCert(h.dir, 'secure.example.test');
    await mkdir(path.join(webRoot(), 'secure'), { recursive: true });
    await writeFile(path.join(webRoot(), 'secure', 'index.html'), 'secure content\n');
    await h.backend.applySite(
      site({ key: 'site-3', host: 'secure.example.test', folder: 'secure', ssl: { cert: pem.cert, key: pem.key, chain: '' } }),
    );
    const curl = () =>
      exec('/usr/bin/curl', [
        '-sS',
        '--cacert',
        pem.file,
        '--resolve',
        `secure.example.test:${h.httpsPort}:127.0.0.1`,
        `https://secure.example.test:${h.httpsPort}/`,
      ]);
    await eventually(async () => (await curl()).stdout === 'secure content\n');
    const shown = await exec(
      '/usr/bin/openssl',
      ['s_client', '-connect', `127.0.0.1:${h.httpsPort}`, '-servername', 'secure.example.test'],
      '',
    );
    const served = new X509Certificate(shown.stdout.slice(shown.stdout.indexOf('-----BEGIN CERTIFICATE-----')));
    expect(served.fingerprint256).toBe(new X509Certificate(pem.cert).fingerprint256);
    for (const f of ['site-3.crt', 'site-3.key']) expect(statSync(path.join(h.dir, 'atalaya', 'certs', f)).mode & 0o777).toBe(0o600);
  });

  it('rolls every file back when nginx refuses the change, and keeps serving the old config', async () => {
    const before = await readFile(path.join(h.dir, 'atalaya', 'sites', 'site-3.conf'), 'utf8');
    const beforeCert = await readFile(path.join(h.dir, 'atalaya', 'certs', 'site-3.crt'), 'utf8');
    const broken = site({
      key: 'site-3',
      host: 'secure.example.test',
      folder: 'secure',
      ssl: { cert: '-----BEGIN CERTIFICATE-----\nbm9wZQ==\n-----END CERTIFICATE-----\n', key: 'garbage', chain: '' },
    });
    await expect(h.backend.applySite(broken)).rejects.toBeInstanceOf(NginxRejected);
    expect(await readFile(path.join(h.dir, 'atalaya', 'sites', 'site-3.conf'), 'utf8')).toBe(before);
    expect(await readFile(path.join(h.dir, 'atalaya', 'certs', 'site-3.crt'), 'utf8')).toBe(beforeCert);
    // A new host refused as a whole leaves no file behind.
    await expect(h.backend.applySite({ ...broken, key: 'site-9', host: 'new.example.test' })).rejects.toBeInstanceOf(NginxRejected);
    expect(existsSync(path.join(h.dir, 'atalaya', 'sites', 'site-9.conf'))).toBe(false);
    expect(existsSync(path.join(h.dir, 'atalaya', 'certs', 'site-9.key'))).toBe(false);
    expect((await exec(NGINX, ['-t', '-q', '-c', path.join(h.dir, 'nginx.conf'), '-p', `${h.dir}/`])).code).toBe(0);
  });

  it('refuses a folder outside the web root, a bad host and a host served by another key', async () => {
    await expect(h.backend.applySite(site({ key: 'site-4', host: 'x.example.test', folder: '../../etc' }))).rejects.toThrow(/\.\./);
    await expect(h.backend.applySite(site({ key: 'site-4', host: 'x.example.test;\ninclude /etc', folder: 'x' }))).rejects.toThrow(
      /host name/,
    );
    await expect(h.backend.applySite(site({ key: '../site-4', host: 'x.example.test', folder: 'x' }))).rejects.toThrow(/key/);
    await expect(h.backend.applySite(site({ key: 'site-4', host: 'blog.example.test', folder: 'x' }))).rejects.toThrow(
      /already served by site-1/,
    );
  });

  it("reads the service's real error log, newest first, from a path derived from its reference", async () => {
    // A folder without an index is a logged error ("directory index … is forbidden").
    for (const name of ['missing-one', 'missing-two']) {
      await mkdir(path.join(webRoot(), 'blog', name), { recursive: true });
      await eventually(async () => (await get(h.httpPort, 'blog.example.test', `/${name}/`)).status === 403);
    }
    const file = h.backend.errorLogFile('example.test');
    expect(file).toBe(path.join(h.dir, 'logs', 'example.test.error.log'));
    await eventually(async () => (await tailErrorLog(file, 10)).some((e) => e.message.includes('missing-two')));
    const entries = await tailErrorLog(file, 2);
    expect(entries).toHaveLength(2);
    expect(entries[0]!.message).toContain('missing-two');
    expect(entries[1]!.message).toContain('missing-one');
    expect(entries[0]!.level).toBe('error');
    expect(() => h.backend.errorLogFile('../../etc/passwd')).toThrow();
  });

  it('sees the hosts another process applied or removed since its own last change', async () => {
    // Two backends over the same files stand for two panel processes: each keeps its index of hosts
    // in memory, and must notice the other's writes before deciding whether a host is taken.
    const other = nginxBackend(h.options);
    await h.backend.list(); // this process's index is now warm
    await other.applySite(site({ key: 'site-7', host: 'shared.example.test', folder: 'shared' }));
    await expect(h.backend.applySite(site({ key: 'site-8', host: 'shared.example.test', folder: 'shared' }))).rejects.toThrow(
      /already served by site-7/,
    );
    await other.removeSite('site-7');
    await h.backend.applySite(site({ key: 'site-8', host: 'shared.example.test', folder: 'shared' }));
    expect((await other.list()).map((s) => s.key)).toContain('site-8');
    await h.backend.removeSite('site-8');
    expect((await other.list()).map((s) => s.key)).not.toContain('site-8');
  });

  it('removes a host: config, certificate and pages go, and nginx stops serving it', async () => {
    await h.backend.removeSite('site-3');
    await h.backend.removeSite('site-3'); // twice is not an error
    await eventually(async () => (await get(h.httpPort, 'secure.example.test')).status === 404);
    expect(existsSync(path.join(h.dir, 'atalaya', 'certs', 'site-3.key'))).toBe(false);
    expect((await h.backend.list()).map((s) => s.key).sort()).toEqual(['apex-2', 'site-1']);
  });

  it('serves an MTA-STS policy as text/plain at exactly /.well-known/mta-sts.txt, the new text on re-apply, and nothing else there', async () => {
    const policy = (...mx: string[]) => `version: STSv1\r\nmode: enforce\r\n${mx.map((m) => `mx: ${m}\r\n`).join('')}max_age: 86400\r\n`;
    const sts = (text: string) =>
      site({
        key: 'site-9',
        host: 'mta-sts.example.test',
        folder: null,
        mtaSts: text,
        service: { kind: 'normal', phpVersion: '8.2', parkingActive: true },
      });
    await h.backend.applySite(sts(policy('mail.example.test')));
    await eventually(async () => (await get(h.httpPort, 'mta-sts.example.test', '/.well-known/mta-sts.txt')).status === 200);
    const answer = await get(h.httpPort, 'mta-sts.example.test', '/.well-known/mta-sts.txt');
    expect(answer.body).toBe(policy('mail.example.test'));
    expect(answer.headers['content-type']).toBe('text/plain');
    // Not the parking page, not the folder: every other path of the policy host is a 404.
    expect((await get(h.httpPort, 'mta-sts.example.test', '/')).status).toBe(404);
    expect((await get(h.httpPort, 'mta-sts.example.test', '/.well-known/mta-sts.txt.bak')).status).toBe(404);
    await h.backend.applySite(sts(policy('backup.example.net', 'mail.example.test')));
    await eventually(
      async () =>
        (await get(h.httpPort, 'mta-sts.example.test', '/.well-known/mta-sts.txt')).body ===
        policy('backup.example.net', 'mail.example.test'),
    );
    await h.backend.removeSite('site-9');
    expect(existsSync(path.join(h.dir, 'atalaya', 'pages', 'site-9', 'mta-sts.txt'))).toBe(false);
  });
});
