import { execFile } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipReason } from '../skip.ts';
import { type DnsTest, dnssecStepNow, openDnsTest } from './helpers.ts';
import { dig, PDNS_MISSING, type PowerDns, startPowerDns } from './powerdns-harness.ts';

const run = promisify(execFile);
const DELV = '/usr/bin/delv';
const DELV_MISSING = PDNS_MISSING ?? skipReason(existsSync(DELV) ? null : `${DELV} is missing (Debian bind9-dnsutils): validation skipped`);

/**
 * What a recursive resolver does for delv, on loopback: a question about the child zone goes to the
 * child's server, except its DS, which the parent holds; everything else goes to the parent. The
 * answer is passed back as it came, marked as recursion available.
 */
async function startRouter(child: number, parent: number, apex: string) {
  const server = createSocket('udp4');
  const upstream = (port: number, message: Buffer) =>
    new Promise<Buffer>((resolve, reject) => {
      const socket: Socket = createSocket('udp4');
      const timer = setTimeout(() => {
        socket.close();
        reject(new Error('upstream timed out'));
      }, 3000);
      socket.once('message', (answer) => {
        clearTimeout(timer);
        socket.close();
        resolve(answer);
      });
      socket.send(message, port, '127.0.0.1');
    });
  server.on('message', async (message, from) => {
    try {
      const [question] = dnsPacket.decode(message).questions ?? [];
      const name = (question?.name ?? '').toLowerCase().replace(/\.$/, '');
      const inChild = name === apex || name.endsWith(`.${apex}`);
      const port = inChild && !(name === apex && question?.type === 'DS') ? child : parent;
      const answer = await upstream(port, message);
      answer[3] |= 0x80;
      server.send(answer, from.port, from.address);
    } catch {
      // No answer: delv retries or reports the failure, which the test then sees.
    }
  });
  await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', () => resolve()));
  return { port: server.address().port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe.skipIf(DELV_MISSING)('a validating resolver follows the chain from the parent through every DNSSEC step', () => {
  let child: PowerDns;
  let parent: PowerDns;
  let router: Awaited<ReturnType<typeof startRouter>>;
  let t: DnsTest;
  let dir: string;
  const drain = () => t.ctx.app.runtime.outbox.drain();
  const registry = () => t.ctx.app.runtime.drivers.registry;
  const state = async () => (await t.get('dnssec/')).body.data.state as string;
  const parentApi = (method: string, url: string, body?: unknown) =>
    fetch(`${parent.apiUrl}/api/v1/servers/localhost/zones${url}`, {
      method,
      headers: { 'X-API-Key': parent.apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => {
      if (!r.ok) throw new Error(`parent ${method} ${url}: ${r.status} ${await r.text()}`);
      return r.status === 204 ? null : r.json();
    });

  /** The parent zone publishes exactly the DS records the registry holds for the child, as a registry's zone does. */
  async function publishRegistry() {
    const held = (await registry().listSecDns(t.id)).filter((d) => d.type === 'digest');
    const rrset = held.length
      ? {
          name: 'zona.es.',
          type: 'DS',
          ttl: 3600,
          changetype: 'REPLACE',
          records: held.map((d) => ({ content: `${d.keyTag} ${d.algorithm} ${d.digestType} ${d.digest}`, disabled: false })),
        }
      : { name: 'zona.es.', type: 'DS', changetype: 'DELETE' };
    await parentApi('PATCH', '/es.', { rrsets: [rrset] });
    await parentApi('PUT', '/es./rectify');
    return held.length;
  }

  /** delv's verdict on the child's address, with the parent's key as the only trust anchor. */
  async function validate(): Promise<'secure' | 'insecure' | 'bogus'> {
    let output: string;
    try {
      const { stdout, stderr } = await run(DELV, [
        '@127.0.0.1',
        '-p',
        String(router.port),
        '-a',
        path.join(dir, 'anchor.conf'),
        '+root=es',
        'zona.es',
        'A',
      ]);
      output = stdout + stderr;
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string };
      output = `${e.stdout ?? ''}${e.stderr ?? ''}`;
    }
    // A signed zone with no DS makes delv note "no valid signature found" on its way to "unsigned answer":
    // only a failed resolution is bogus.
    if (/resolution failed|broken trust chain/.test(output)) return 'bogus';
    const answered = /zona\.es\.\s+\d+\s+IN\s+A\s+192\.0\.2\.10/.test(output);
    if (answered && /^; fully validated$/m.test(output)) return 'secure';
    if (answered && /^; unsigned answer$/m.test(output)) return 'insecure';
    throw new Error(`delv said something unexpected:\n${output}`);
  }

  /** The chain holds: secure while the parent publishes a DS, insecure only once it publishes none. */
  async function expectChainHolds() {
    const ds = await publishRegistry();
    expect(await validate()).toBe(ds > 0 ? 'secure' : 'insecure');
    return ds;
  }

  beforeAll(async () => {
    child = await startPowerDns();
    parent = await startPowerDns();
    dir = mkdtempSync(path.join(tmpdir(), 'atalaya-delv-'));
    const address = `127.0.0.1:${child.dnsPort}`;
    t = await openDnsTest('sqlite', {
      'drivers.dns': { ...child.driverConfig, dsTtl: 3600, nsAddresses: { 'ns1.atalaya.test.': address, 'ns2.atalaya.test.': address } },
    });
    await t.list();
    await drain();
    // The parent: es., signed, delegating zona.es to the panel's name servers.
    await parentApi('POST', '', {
      name: 'es.',
      kind: 'Native',
      nameservers: [],
      rrsets: [
        { name: 'es.', type: 'SOA', ttl: 3600, records: [{ content: 'ns.es. hostmaster.es. 1 10800 3600 604800 3600', disabled: false }] },
        { name: 'es.', type: 'NS', ttl: 3600, records: [{ content: 'ns.es.', disabled: false }] },
        { name: 'ns.es.', type: 'A', ttl: 3600, records: [{ content: '127.0.0.1', disabled: false }] },
        {
          name: 'zona.es.',
          type: 'NS',
          ttl: 3600,
          records: ['ns1.atalaya.test.', 'ns2.atalaya.test.'].map((content) => ({ content, disabled: false })),
        },
      ],
    });
    await parentApi('PUT', '/es.', { dnssec: true, api_rectify: true });
    await parentApi('PUT', '/es./rectify');
    const [anchor] = (await parentApi('GET', '/es./cryptokeys')) as { dnskey: string }[];
    const [flags, protocol, algorithm, ...key] = anchor.dnskey.split(/\s+/);
    writeFileSync(
      path.join(dir, 'anchor.conf'),
      `trust-anchors {\n  es. static-key ${flags} ${protocol} ${algorithm} "${key.join('')}";\n};\n`,
    );
    router = await startRouter(child.dnsPort, parent.dnsPort, 'zona.es');
  }, 60000);

  afterAll(async () => {
    await router?.close();
    await t?.ctx.close();
    await child?.stop();
    await parent?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers insecure for the unsigned zone with no DS at the registry', async () => {
    expect(await expectChainHolds()).toBe(0);
  });

  it('calls a DS that matches no key bogus: the check below would see a broken chain', async () => {
    const wrong = await registry().addSecDns(t.id, {
      type: 'digest',
      keyTag: 4242,
      algorithm: 13,
      digestType: 2,
      digest: 'CD'.repeat(32),
      flags: null,
      protocol: null,
    });
    await publishRegistry();
    expect(await validate()).toBe('bogus');
    await registry().removeSecDns(t.id, wrong);
    expect(await expectChainHolds()).toBe(0);
  });

  it('signs first and places the DS only after the DNSKEY TTL the server answers with: insecure, then fully validated', async () => {
    await t.post('dnssec/', { enabled: 1 });
    await drain();
    expect(await state()).toBe('publishing');
    // The wait is what PowerDNS serves: the DNSKEY's TTL, and the negative TTL of the SOA from before.
    const { dueAt } = (await t.get('dnssec/')).body.data;
    const [dnskey] = await dig(child.dnsPort, 'zona.es', 'DNSKEY');
    const [soa] = await dig(child.dnsPort, 'zona.es', 'SOA');
    const negative = Math.min(soa.ttl, Number(soa.rdata.split(/\s+/)[6]));
    const wait = Math.max(dnskey.ttl, negative);
    expect(dueAt - Math.floor(Date.now() / 1000)).toBeGreaterThan(wait - 30);
    expect(dueAt - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(wait);
    expect(await expectChainHolds()).toBe(0);
    await dnssecStepNow(t);
    expect(await state()).toBe('on');
    expect(await expectChainHolds()).toBe(1);
  });

  it('rolls the key with the chain whole at every step', async () => {
    expect((await t.post('dnssec/roll/', {})).status).toBe(200);
    await drain();
    expect(await state()).toBe('roll-waiting-ds');
    expect(await expectChainHolds()).toBe(2);
    await dnssecStepNow(t);
    expect(await state()).toBe('roll-waiting-key');
    expect(await expectChainHolds()).toBe(2);
    await dnssecStepNow(t);
    expect(await state()).toBe('on');
    expect(await expectChainHolds()).toBe(1);
  });

  it('turning off withdraws the DS while still signed, unsigns past the TTL, and the chain is never broken', async () => {
    await t.post('dnssec/', { enabled: 0 });
    expect(await state()).toBe('withdrawing');
    // The registry still holds the DS until the job runs: still secure.
    expect(await expectChainHolds()).toBe(1);
    await drain();
    expect(await state()).toBe('waiting');
    expect(await expectChainHolds()).toBe(0);
    // Before the TTL the schedule changes nothing.
    await t.ctx.app.runtime.scheduler.runNow('dnssec-steps');
    await drain();
    expect(await state()).toBe('waiting');
    expect((await t.get('dnssec/')).body.data.keys).toHaveLength(1);
    await dnssecStepNow(t);
    expect(await state()).toBe('off');
    expect(await registry().listSecDns(t.id)).toEqual([]);
    expect(await dig(child.dnsPort, 'zona.es', 'DNSKEY')).toEqual([]);
    expect(await expectChainHolds()).toBe(0);
  });
});
