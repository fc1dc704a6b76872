import { X509Certificate } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { MailHealth } from '@atalaya/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLocalSite } from '../../src/drivers/sites/local.ts';
import { missingRecords } from '../../src/modules/dns/mail-records.ts';
import { eventually, missingBinaries } from '../backends/harness/common.ts';
import { NGINX, type NginxHarness, startNginx } from '../backends/harness/nginx.ts';
import { exec } from '../backends/http.ts';
import { nginxOverrides, openRealApp, REFERENCE, type RealApp } from '../backends/through-api.ts';
import { dig, PDNS_MISSING, type PowerDns, startPowerDns } from '../dns/powerdns-harness.ts';
import { type Account, createAccount } from '../fixtures.ts';
import { api } from '../service/helpers.ts';
import { openTestApp, type TestContext } from '../stores.ts';
import { type Pebble, pebbleMissing, startPebble } from './pebble-harness.ts';

const skip = PDNS_MISSING ?? pebbleMissing() ?? missingBinaries(NGINX, '/usr/bin/openssl', '/usr/bin/curl');

const MTA_STS = { 'hosting.mailRecords.mtaSts': 'enforce', 'hosting.mailRecords.mtaStsMaxAge': '86400' };
const policy = (...mx: string[]) => `version: STSv1\r\nmode: enforce\r\n${mx.map((h) => `mx: ${h}\r\n`).join('')}max_age: 86400\r\n`;
const stsId = async (pdns: PowerDns, domain: string) => (await dig(pdns.dnsPort, `_mta-sts.${domain}`, 'TXT')).map((r) => r.rdata).join();

/**
 * The MTA-STS policy (RFC 8461 §3.2) served from mta-sts.<domain> with real components: PowerDNS
 * serves the zone the panel writes, pebble validates the free certificate (HTTP-01 on the nginx
 * the panel configures, DNS-01 for the local driver), everything through the app's own outbox.
 */
describe.skipIf(skip)('the MTA-STS policy served from its own host with a free certificate', () => {
  let pdns: PowerDns;
  let h: NginxHarness;
  let pebble: Pebble;
  let app: RealApp;
  let rootFile: string;
  const host = `mta-sts.${REFERENCE}`;
  /** What nginx answers over HTTPS for the policy host, verified against pebble's root. */
  const fetch = (pathname: string) =>
    exec(
      '/usr/bin/curl',
      [
        '-sS',
        '--max-time',
        '10',
        '-i',
        '--cacert',
        rootFile,
        '--resolve',
        `${host}:${h.httpsPort}:127.0.0.1`,
        `https://${host}:${h.httpsPort}${pathname}`,
      ],
      '',
    );

  beforeAll(async () => {
    pdns = await startPowerDns();
    h = await startNginx();
    pebble = await startPebble({ httpPort: h.httpPort, dnsServer: `127.0.0.1:${pdns.dnsPort}` });
    app = await openRealApp({
      ...nginxOverrides(h),
      'drivers.dns': { ...pdns.driverConfig, webIp: '127.0.0.1' },
      'acme.directoryUrl': pebble.directoryUrl,
      'acme.caFile': pebble.caFile,
      'hosting.mailRecords.resolver': `127.0.0.1:${pdns.dnsPort}`,
      ...MTA_STS,
    });
    rootFile = path.join(h.dir, 'pebble-root.pem');
    await writeFile(rootFile, await pebble.root());
    // The mail service's first job makes the zone with the mail records, the policy's site and its certificate order.
    await app.drain();
  }, 90_000);
  afterAll(async () => {
    await app?.close();
    await pebble?.stop();
    await h?.stop();
    await pdns?.stop();
  });

  it('points mta-sts.<domain> at the web server and serves exactly the policy there over HTTPS, with pebble’s certificate', async () => {
    expect((await dig(pdns.dnsPort, host, 'A')).map((r) => r.rdata)).toEqual(['127.0.0.1']);
    const site = await app.ctx.store
      .selectFrom('site')
      .selectAll()
      .where('service_id', '=', app.id)
      .where('name', '=', 'mta-sts')
      .executeTakeFirstOrThrow();
    expect(site).toMatchObject({ acme_enabled: 1, cert_source: 'acme', ssl_enabled: 1, acme_error: null });
    expect(new X509Certificate(site.cert).subjectAltName).toBe(`DNS:${host}`);
    let answer = { stdout: '', stderr: '' };
    // nginx's reload after the installation is graceful: an old worker may answer a moment longer.
    await eventually(async () => {
      answer = await fetch('/.well-known/mta-sts.txt');
      return answer.stdout.includes(' 200');
    });
    const [head, body] = answer.stdout.split('\r\n\r\n');
    expect(head, answer.stderr).toMatch(/^HTTP\/1\.1 200/);
    expect(head).toMatch(/\r\ncontent-type: text\/plain/i);
    expect(body).toBe(policy(`mail.${REFERENCE}`));
    expect((await fetch('/')).stdout).toMatch(/^HTTP\/1\.1 404/);
    expect((await fetch('/index.php')).stdout).toMatch(/^HTTP\/1\.1 404/);
    // The mail screen says the panel serves it, rather than asking for it to be served.
    const health = await app.call<MailHealth>(`/service/${app.id}/mail/health/`);
    expect(health.body.data).toMatchObject({ mtaStsPolicy: policy(`mail.${REFERENCE}`), mtaStsServed: true });
  }, 60_000);

  it('serves one mx line per MX record once the customer adds one, and announces it with a new _mta-sts id', async () => {
    const before = await stsId(pdns, REFERENCE);
    expect(before).toMatch(/v=STSv1; id=[0-9a-f]{20}/);
    const added = await app.call(`/service/${app.id}/dns/create/`, {
      zona: '',
      type: 'MX',
      value: 'backup.example.net.',
      priority: '20',
      ttl: '0',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    await app.drain();
    await eventually(async () =>
      (await fetch('/.well-known/mta-sts.txt')).stdout.endsWith(policy('backup.example.net', `mail.${REFERENCE}`)),
    );
    await app.drain();
    const after = await stsId(pdns, REFERENCE);
    expect(after).toMatch(/v=STSv1; id=[0-9a-f]{20}/);
    expect(after).not.toBe(before);
  }, 60_000);
});

describe.skipIf(PDNS_MISSING ?? pebbleMissing())('the MTA-STS policy in the local sites driver’s state', () => {
  let pdns: PowerDns;
  let pebble: Pebble;
  let ctx: TestContext;
  let acc: Account;
  let id: number;
  const applied = async () => {
    const site = await ctx.store
      .selectFrom('site')
      .select('id')
      .where('service_id', '=', id)
      .where('name', '=', 'mta-sts')
      .executeTakeFirstOrThrow();
    return readLocalSite(ctx.config.dataDir, `site-${site.id}`);
  };

  beforeAll(async () => {
    pdns = await startPowerDns();
    // The local driver serves no HTTP: the certificate is proved by DNS-01 in the zone PowerDNS serves.
    pebble = await startPebble({ httpPort: 1, dnsServer: `127.0.0.1:${pdns.dnsPort}` });
    ctx = await openTestApp('sqlite', {
      'drivers.dns': pdns.driverConfig,
      'acme.directoryUrl': pebble.directoryUrl,
      'acme.caFile': pebble.caFile,
      'acme.challenge': 'dns-01',
      ...MTA_STS,
    });
    acc = await createAccount(ctx.store, {
      users: { w: 'all=write' },
      items: [{ reference: 'correo.test', service: 'normal', mail: true }],
    });
    id = acc.items['correo.test']!;
    await ctx.app.runtime.outbox.drain();
  }, 90_000);
  afterAll(async () => {
    await ctx?.close();
    await pebble?.stop();
    await pdns?.stop();
  });

  it('applies the mta-sts host with the policy of the zone’s MX, no folder, and the certificate pebble issued', async () => {
    expect(await applied()).toMatchObject({
      host: 'mta-sts.correo.test',
      folder: null,
      redirections: [],
      mtaSts: policy('mail.correo.test'),
      ssl: { cert: expect.stringContaining('BEGIN CERTIFICATE') },
    });
  });

  it('applies the policy again with the new MX list when an MX record changes', async () => {
    const added = await api(ctx, acc, 'w', `/service/${id}/dns/create/`, {
      zona: '',
      type: 'MX',
      value: 'mx2.correo.test.',
      priority: '20',
      ttl: '0',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    await ctx.app.runtime.outbox.drain();
    expect((await applied())?.mtaSts).toBe(policy('mail.correo.test', 'mx2.correo.test'));
  });
});

it('publishes no mta-sts address where the customer’s zone already points that name somewhere', () => {
  const wanted = [{ purpose: 'mtastshost' as const, zona: 'mta-sts', type: 'A' as const, value: '192.0.2.10', priority: null }];
  expect(missingRecords(wanted, [{ zona: 'mta-sts', type: 'CNAME', value: 'policies.example.net.' }])).toEqual([]);
  expect(missingRecords(wanted, [{ zona: 'mta-sts', type: 'AAAA', value: '2001:db8::1' }])).toEqual([]);
  expect(missingRecords(wanted, [{ zona: 'www', type: 'A', value: '192.0.2.10' }])).toEqual([
    expect.objectContaining({ zona: 'mta-sts', type: 'A', value: '192.0.2.10' }),
  ]);
});
