import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { powerDnsDriver } from '../../src/drivers/dns/powerdns.ts';
import type { SiteState } from '../../src/drivers/sites/interface.ts';
import { localSitesDriver, readLocalChallenge } from '../../src/drivers/sites/local.ts';
import { eventually, missingBinaries } from '../backends/harness/common.ts';
import { NGINX, type NginxHarness, startNginx } from '../backends/harness/nginx.ts';
import { get } from '../backends/http.ts';
import { dig, PDNS_MISSING, type PowerDns, startPowerDns, txtText } from '../dns/powerdns-harness.ts';

const TOKEN = 'evaGxfADs6pSRb2LAv9IZf17Dt3juxGJ-PCt92wr-oA';
const AUTHZ = `${TOKEN}.9jg46WB3rR_AHD-EBXdN7cBkH1WOu0tA3M9fm21mqTI`;
const site = (over: Partial<SiteState> = {}): SiteState => ({
  key: 'site-7',
  serviceId: 1,
  reference: 'example.test',
  host: 'www.example.test',
  folder: 'www',
  ssl: null,
  redirections: [],
  service: { kind: 'normal', phpVersion: '8.2', parkingActive: false },
  ...over,
});

describe.skipIf(missingBinaries(NGINX))('HTTP-01 answers through the nginx driver', () => {
  let h: NginxHarness;
  beforeAll(async () => {
    h = await startNginx();
  });
  afterAll(async () => h?.stop());

  it('serve the key authorisation as plain text without a reload, even past a redirection of the whole host, until removed', async () => {
    await h.backend.applySite(
      site({ redirections: [{ id: 1, origin: '/', kind: '301', target: 'https://elsewhere.test/', frame: null }] }),
    );
    await eventually(async () => (await get(h.httpPort, 'www.example.test', '/')).status === 301); // the reload has taken
    await h.backend.putChallenge('site-7', TOKEN, AUTHZ);
    const answer = await get(h.httpPort, 'www.example.test', `/.well-known/acme-challenge/${TOKEN}`);
    expect([answer.status, answer.headers['content-type'], answer.body]).toEqual([200, 'text/plain', AUTHZ]);
    expect((await get(h.httpPort, 'www.example.test', '/')).status).toBe(301);
    await h.backend.removeChallenge('site-7', TOKEN);
    expect((await get(h.httpPort, 'www.example.test', `/.well-known/acme-challenge/${TOKEN}`)).status).toBe(404);
  });

  it('refuse a token that could leave the directory', async () => {
    await expect(h.backend.putChallenge('site-7', '../../../../etc/passwd-xxxxxxxx', '../x')).rejects.toThrow(/invalid ACME token/);
    await expect(h.backend.putChallenge('site-7', TOKEN, 'other.value')).rejects.toThrow(/invalid ACME key authorization/);
  });
});

describe('HTTP-01 answers through the local sites driver', () => {
  it('are kept in its state under the data dir until removed', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'atalaya-acme-local-'));
    try {
      const driver = localSitesDriver(dataDir);
      await driver.putChallenge('site-7', TOKEN, AUTHZ);
      expect(readLocalChallenge(dataDir, 'site-7', TOKEN)).toBe(AUTHZ);
      await driver.removeChallenge('site-7', TOKEN);
      expect(readLocalChallenge(dataDir, 'site-7', TOKEN)).toBeNull();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(PDNS_MISSING)('DNS-01 answers through the PowerDNS driver', () => {
  let pdns: PowerDns;
  beforeAll(async () => {
    pdns = await startPowerDns();
  });
  afterAll(async () => pdns?.stop());

  it('serve the _acme-challenge TXT values at once beside the zone, and remove only that RRset afterwards', async () => {
    const driver = powerDnsDriver({
      url: pdns.apiUrl,
      apiKey: pdns.apiKey,
      serverId: 'localhost',
      nameservers: ['ns1.test.'],
      timeoutMs: 2000,
    });
    const a = { name: 'acme.test.', type: 'A' as const, ttl: 300, contents: ['127.0.0.1'] };
    await driver.applyZone({ itemId: 1, name: 'acme.test', version: 1, rrsets: [a] });
    // A wildcard and its base name share one owner name: both digests are served together.
    await driver.setTxt('acme.test', '_acme-challenge.acme.test.', ['digest-one', 'digest-two']);
    const served = await dig(pdns.dnsPort, '_acme-challenge.acme.test', 'TXT');
    expect(served.map((r) => txtText(r.rdata)).sort()).toEqual(['digest-one', 'digest-two']);
    await driver.setTxt('acme.test', '_acme-challenge.acme.test.', []);
    expect(await dig(pdns.dnsPort, '_acme-challenge.acme.test', 'TXT')).toEqual([]);
    expect((await dig(pdns.dnsPort, 'acme.test', 'A')).map((r) => r.rdata)).toEqual(['127.0.0.1']);
  });
});
