import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipReason } from '../../server/test/skip.ts';
import type { TestRegistry } from '../src/server.ts';
import { code, createDomain, NS, PASSWORD, registryFor, seeded, testCertificates } from './harness.ts';

function perlMissing(): string | null {
  try {
    execFileSync('perl', ['-MNet::EPP::Simple', '-e', '1'], { stdio: 'ignore' });
    return null;
  } catch {
    return 'EPP interop: perl with Net::EPP::Simple not found (Debian: apt-get install libnet-epp-perl)';
  }
}
const skip = skipReason(perlMissing());
const script = fileURLToPath(new URL('./interop.pl', import.meta.url));

describe.skipIf(skip)("Debian's libnet-epp-perl against the test registry", () => {
  const certs = testCertificates();
  const dir = mkdtempSync(path.join(tmpdir(), 'atalaya-epp-interop-'));
  const file = (name: string, text: string) => {
    writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };
  let registry: TestRegistry;
  let output: Record<string, string>;

  beforeAll(async () => {
    registry = await registryFor(certs);
    // A domain made by another client first (as the panel would), with DNSSEC, for the Perl client to read.
    const panel = await seeded(registry, certs);
    const ds =
      `<secDNS:create xmlns:secDNS="${NS.secDNS}"><secDNS:dsData><secDNS:keyTag>12345</secDNS:keyTag><secDNS:alg>13</secDNS:alg>` +
      '<secDNS:digestType>2</secDNS:digestType><secDNS:digest>49FD46E6C4B45C55D4AC49FD46E6C4B45C55D4AC49FD46E6C4B45C55D4AC1234</secDNS:digest></secDNS:dsData></secDNS:create>';
    expect(code(await panel.command(createDomain('panel-made.test', ['ns1.dns.example', 'ns2.dns.example']), ds))).toBe(1000);
    panel.close();
    const args = [
      script,
      String(registry.port),
      file('client.pem', certs.client.cert),
      file('client.key', certs.client.key),
      file('ca.pem', certs.ca),
      'registrar-a',
      PASSWORD,
      'panel-made.test',
    ];
    const { stdout } = await promisify(execFile)('perl', args, { timeout: 20_000 });
    output = Object.fromEntries(
      stdout
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
  });
  afterAll(() => registry?.close());

  it('connects over TLS with its client certificate, reads the greeting and logs in', () => {
    expect(output.svID).toBe('Atalaya test registry');
    expect(output.login).toBe('1000');
  });

  it('creates a contact, host objects and a domain, all accepted by the grammar checks', () => {
    expect([output.contact, output.host2, output.host3, output.domain]).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(registry.state.data.domains['perl-made.test']).toMatchObject({
      registrant: 'perl-1',
      hostObjs: ['ns.perl-dns.example', 'ns2.perl-dns.example'],
    });
  });

  it('checks a taken and a free name', () => {
    expect(output['check.perl-made']).toBe('0');
    expect(output['check.free']).toBe('1');
  });

  it('reads the name servers, statuses and DS record of a domain another client created', () => {
    expect(output['info.panel-made.test.ns']).toBe('ns1.dns.example,ns2.dns.example');
    expect(output['info.panel-made.test.status']).toBe('ok');
    expect(output['info.panel-made.test.registrant']).toBe('reg-1');
    expect(output['info.panel-made.test.DS']).toBe('12345 13 2 49FD46E6C4B45C55D4AC49FD46E6C4B45C55D4AC49FD46E6C4B45C55D4AC1234');
    expect(output['info.perl-made.test.ns']).toBe('ns.perl-dns.example,ns2.perl-dns.example');
  });

  it('logs out', () => {
    expect(output.logout).toBe('ok');
  });
});
