import { writeFile } from 'node:fs/promises';
import { Agent, get } from 'node:https';
import path from 'node:path';
import { freePort, missingBinaries, removeDir, startDaemon, stopDaemon, tempDir, waitForPort } from '../backends/harness/common.ts';
import { leafCertificate } from '../sites/certs.ts';

export const PEBBLE = '/usr/bin/pebble';
export const pebbleMissing = () => missingBinaries(PEBBLE, '/usr/bin/openssl');

export interface Pebble {
  /** The ACME directory URL (https://localhost:<port>/dir). */
  directoryUrl: string;
  /** The CA that signed pebble's own HTTPS certificate, for `acme.caFile`. */
  caFile: string;
  /** Pebble's issuing root (changes with every start), PEM. */
  root(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Pebble (Let's Encrypt's RFC 8555 test server) on loopback: its API over HTTPS with a test
 * certificate for localhost, HTTP-01 validated on `httpPort` (where the harness's nginx listens),
 * names resolved through `dnsServer` (the harness's PowerDNS), no artificial sleeps, no reused
 * authorisations and no rejected nonces, so each order walks every step once.
 */
export async function startPebble(options: { httpPort: number; dnsServer: string }): Promise<Pebble> {
  const dir = await tempDir('pebble');
  const tls = leafCertificate(['localhost']);
  const [apiPort, managementPort, tlsPort] = [await freePort(), await freePort(), await freePort()];
  const file = (name: string) => path.join(dir, name);
  await writeFile(file('cert.pem'), tls.cert);
  await writeFile(file('key.pem'), tls.key);
  await writeFile(file('ca.pem'), tls.chain);
  await writeFile(
    file('pebble.json'),
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${apiPort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: file('cert.pem'),
        privateKey: file('key.pem'),
        httpPort: options.httpPort,
        tlsPort,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  const env = { PEBBLE_VA_NOSLEEP: '1', PEBBLE_AUTHZREUSE: '0', PEBBLE_WFE_NONCEREJECT: '0' };
  const daemon = startDaemon(PEBBLE, ['-config', file('pebble.json'), '-dnsserver', options.dnsServer], env);
  try {
    await waitForPort(apiPort);
    await waitForPort(managementPort);
  } catch (error) {
    await stopDaemon(daemon.child);
    throw new Error(`pebble did not start: ${(error as Error).message}\n${daemon.output()}`);
  }
  return {
    directoryUrl: `https://localhost:${apiPort}/dir`,
    caFile: file('ca.pem'),
    root() {
      return new Promise<string>((resolve, reject) => {
        get(`https://localhost:${managementPort}/roots/0`, { agent: new Agent({ ca: tls.chain }) }, (response) => {
          let body = '';
          response.on('data', (d) => (body += d));
          response.on('end', () => resolve(body));
        }).on('error', reject);
      });
    },
    async stop() {
      await stopDaemon(daemon.child);
      await removeDir(dir);
    },
  };
}
