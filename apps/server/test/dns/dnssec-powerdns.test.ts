import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dsOf } from '../../src/drivers/dns/dnssec.ts';
import { powerDnsDriver } from '../../src/drivers/dns/powerdns.ts';
import { checkDelegation } from '../../src/modules/dns/check/findings.ts';
import { ask } from '../../src/modules/dns/check/probe.ts';
import { type DnsTest, dnssecStepNow, openDnsTest } from './helpers.ts';
import { PDNS_MISSING, type PowerDns, startPowerDns } from './powerdns-harness.ts';

describe.skipIf(PDNS_MISSING)('DNSSEC and the delegation check against a real PowerDNS', () => {
  let pdns: PowerDns;
  let t: DnsTest;
  const here = () => ({ host: '127.0.0.1', port: pdns.dnsPort });
  const drain = () => t.ctx.app.runtime.outbox.drain();
  const registry = () => t.ctx.app.runtime.drivers.registry;
  const codes = async () =>
    ((await t.get('check/')).body.data.findings as { code: string; level: string }[]).map((f) => `${f.level} ${f.code}`);

  beforeAll(async () => {
    pdns = await startPowerDns();
    const address = `127.0.0.1:${pdns.dnsPort}`;
    t = await openDnsTest('sqlite', {
      'drivers.dns': { ...pdns.driverConfig, dsTtl: 3600, nsAddresses: { 'ns1.atalaya.test.': address, 'ns2.atalaya.test.': address } },
    });
    await t.list();
    await drain();
    await registry().setNameServers(t.id, 'defaultDNS', ['ns1.atalaya.test', 'ns2.atalaya.test']);
  }, 30000);
  afterAll(async () => {
    await t?.ctx.close();
    await pdns?.stop();
  });

  it('finds a healthy unsigned delegation: same servers, authoritative answers, one serial', async () => {
    expect(await codes()).toEqual(['ok ns_match', 'ok serial_match']);
  });

  it('signs the zone: answers carry RRSIGs, and the DS shown and placed equals the one computed from the published DNSKEY', async () => {
    await t.post('dnssec/', { enabled: 1 });
    await drain();
    // The DS waits for the DNSKEY's TTL (dnssec-validation.test.ts follows each step with delv).
    expect((await t.get('dnssec/')).body.data.state).toBe('publishing');
    expect(await registry().listSecDns(t.id)).toEqual([]);
    await dnssecStepNow(t);
    const soa = await ask(here(), 'zona.es', 'SOA', { dnssec: true });
    expect(soa.answers.map((a) => a.type)).toContain('RRSIG');
    const dnskeys = (await ask(here(), 'zona.es', 'DNSKEY', { dnssec: true })).answers.filter((a) => a.type === 'DNSKEY');
    const computed = dnskeys
      .map((k) => k.data as { flags: number; algorithm: number; key: Buffer })
      .filter((k) => k.flags & 1)
      .map((k) => dsOf('zona.es', k.flags, k.algorithm, k.key.toString('base64')));
    expect(computed).toHaveLength(1);
    // PowerDNS's own digest of its key agrees with the RFC 4034 computation over the key it serves.
    const cryptokeys = await fetch(`${pdns.apiUrl}/api/v1/servers/localhost/zones/zona.es./cryptokeys`, {
      headers: { 'X-API-Key': pdns.apiKey },
    });
    const own = ((await cryptokeys.json()) as { ds?: string[] }[]).flatMap((k) => k.ds ?? []);
    expect(own).toContain(`${computed[0].keyTag} 13 2 ${computed[0].digest.toLowerCase()}`);
    const state = (await t.get('dnssec/')).body.data;
    expect(state.state).toBe('on');
    expect(state.ds).toEqual([{ ...computed[0], atRegistry: true }]);
    expect(await registry().listSecDns(t.id)).toMatchObject([{ keyTag: computed[0].keyTag, digest: computed[0].digest, digestType: 2 }]);
    expect(await codes()).toEqual(['ok ns_match', 'ok serial_match', 'ok ds_match', 'ok rrsig_fresh']);
  });

  it('finds each fault made on purpose: a wrong name server at the registry and a DS that matches no key', async () => {
    await registry().setNameServers(t.id, 'setDNS', ['ns1.atalaya.test', 'ns9.wrong.test']);
    const bogus = await registry().addSecDns(t.id, {
      type: 'digest',
      keyTag: 4242,
      algorithm: 13,
      digestType: 2,
      digest: 'CD'.repeat(32),
      flags: null,
      protocol: null,
    });
    const findings = (await t.get('check/')).body.data.findings;
    expect(findings).toContainEqual({
      code: 'ns_mismatch',
      level: 'error',
      params: { registry: 'ns1.atalaya.test, ns9.wrong.test', zone: 'ns1.atalaya.test, ns2.atalaya.test' },
      text: 'El registro delega en ns1.atalaya.test, ns9.wrong.test, pero la zona anuncia ns1.atalaya.test, ns2.atalaya.test',
      fix: 'Cambia los servidores de nombres del dominio a ns1.atalaya.test, ns2.atalaya.test',
    });
    expect(findings).toContainEqual(
      expect.objectContaining({ code: 'ds_no_key', level: 'error', params: { keytag: '4242', zone: 'zona.es' } }),
    );
    await registry().removeSecDns(t.id, bogus);
    await registry().setNameServers(t.id, 'defaultDNS', ['ns1.atalaya.test', 'ns2.atalaya.test']);
  });

  it('finds a name server that does not answer and servers whose serials are out of step', async () => {
    const other = await startPowerDns();
    try {
      const driver = powerDnsDriver({
        ...(other.driverConfig as { url: string; apiKey: string }),
        serverId: 'localhost',
        nameservers: ['ns1.atalaya.test.'],
        timeoutMs: 2000,
      });
      await driver.applyZone({
        itemId: t.id,
        name: 'zona.es',
        version: 999,
        rrsets: [{ name: 'zona.es.', type: 'NS', ttl: 3600, contents: ['ns1.atalaya.test.'] }],
      });
      const base = { zone: 'zona.es', registry: null, signed: false, now: Math.floor(Date.now() / 1000) };
      const servers = ['ns1.atalaya.test.', 'ns2.atalaya.test.'];
      const stepped = await checkDelegation({
        ...base,
        zoneServers: servers,
        addresses: { 'ns1.atalaya.test.': `127.0.0.1:${pdns.dnsPort}`, 'ns2.atalaya.test.': `127.0.0.1:${other.dnsPort}` },
      });
      const serials = stepped.find((f) => f.code === 'serial_mismatch' && f.level === 'error')?.params.serials ?? '';
      const [first, second] = serials.split(', ').map((s) => s.split(' ')[1]);
      expect(serials).toMatch(/^ns1\.atalaya\.test \d+, ns2\.atalaya\.test \d+$/);
      expect(first).not.toBe(second);
      await other.kill();
      const silent = await checkDelegation({
        ...base,
        zoneServers: servers,
        addresses: { 'ns1.atalaya.test.': `127.0.0.1:${pdns.dnsPort}`, 'ns2.atalaya.test.': `127.0.0.1:${other.dnsPort}` },
      });
      expect(silent).toContainEqual({ code: 'ns_silent', level: 'error', params: { server: 'ns2.atalaya.test' } });
    } finally {
      await other.stop();
    }
  }, 20000);

  it('rolls the key: the new DS is placed before the new key is served, and the old DS goes only after the switch', async () => {
    const served = async () =>
      (await ask(here(), 'zona.es', 'DNSKEY', { dnssec: true })).answers
        .filter((a) => a.type === 'DNSKEY')
        .map((k) => {
          const d = k.data as { flags: number; algorithm: number; key: Buffer };
          return dsOf('zona.es', d.flags, d.algorithm, d.key.toString('base64')).keyTag;
        });
    const signer = async () =>
      (await ask(here(), 'zona.es', 'SOA', { dnssec: true })).answers
        .filter((a) => a.type === 'RRSIG')
        .map((a) => (a.data as { keyTag: number }).keyTag);
    const [old] = await served();
    expect((await t.post('dnssec/roll/', {})).status).toBe(200);
    await drain();
    const atRegistry = (await registry().listSecDns(t.id)).map((d) => d.keyTag);
    const fresh = atRegistry.find((tag) => tag !== old)!;
    expect(atRegistry).toHaveLength(2);
    expect(await served()).toEqual([old]);
    expect(await signer()).toEqual([old]);
    await dnssecStepNow(t);
    expect(await served()).toEqual([fresh]);
    expect(await signer()).toEqual([fresh]);
    expect(await registry().listSecDns(t.id)).toHaveLength(2);
    await dnssecStepNow(t);
    expect((await registry().listSecDns(t.id)).map((d) => d.keyTag)).toEqual([fresh]);
    expect((await t.get('dnssec/')).body.data.state).toBe('on');
  });

  it('turning off withdraws the DS while the zone stays signed, and unsigns once the DS TTL has passed', async () => {
    await t.post('dnssec/', { enabled: 0 });
    await drain();
    expect(await registry().listSecDns(t.id)).toEqual([]);
    // The DS may still sit in caches: the zone keeps signing.
    expect((await ask(here(), 'zona.es', 'SOA', { dnssec: true })).answers.map((a) => a.type)).toContain('RRSIG');
    await t.ctx.app.runtime.scheduler.runNow('dnssec-steps');
    await drain();
    expect((await ask(here(), 'zona.es', 'SOA', { dnssec: true })).answers.map((a) => a.type)).toContain('RRSIG');
    await dnssecStepNow(t);
    const soa = await ask(here(), 'zona.es', 'SOA', { dnssec: true });
    expect(soa.answers.map((a) => a.type)).toEqual(['SOA']);
    expect((await ask(here(), 'zona.es', 'DNSKEY', { dnssec: true })).answers).toEqual([]);
    expect((await t.get('dnssec/')).body.data).toMatchObject({ state: 'off', keys: [], ds: [] });
  });
});
