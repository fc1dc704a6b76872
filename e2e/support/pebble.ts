/** Pebble for the browser tests: an ACME server on loopback that marks every challenge valid (the local drivers serve nothing). */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { leafCertificate } from '../../apps/server/test/sites/certs.ts';

export const PEBBLE = '/usr/bin/pebble';
export const pebbleInstalled = () => existsSync(PEBBLE);

/** Starts pebble on `port` (API) and `port + 1` (management); the answer is the env the panel needs and the process. */
export function startPebble(dir: string, port: number): { env: Record<string, string>; child: ChildProcess } {
  const tls = leafCertificate(['localhost']);
  const file = (name: string) => path.join(dir, name);
  writeFileSync(file('pebble-cert.pem'), tls.cert);
  writeFileSync(file('pebble-key.pem'), tls.key);
  writeFileSync(file('pebble-ca.pem'), tls.chain);
  const config = {
    pebble: {
      listenAddress: `127.0.0.1:${port}`,
      managementListenAddress: `127.0.0.1:${port + 1}`,
      certificate: file('pebble-cert.pem'),
      privateKey: file('pebble-key.pem'),
      httpPort: port + 2,
      tlsPort: port + 3,
      ocspResponderURL: '',
      externalAccountBindingRequired: false,
    },
  };
  writeFileSync(file('pebble.json'), JSON.stringify(config));
  const child = spawn(PEBBLE, ['-config', file('pebble.json')], {
    stdio: 'ignore',
    env: { ...process.env, PEBBLE_VA_ALWAYS_VALID: '1', PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0' },
  });
  return {
    env: { ATALAYA_ACME_DIRECTORY: `https://localhost:${port}/dir`, ATALAYA_ACME_CA_FILE: file('pebble-ca.pem') },
    child,
  };
}
