/** Starts the real server on a fresh temporary data dir for the browser tests; the dir is the tests' too. */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startDns } from './dns.ts';
import { E2E_COMPANY, E2E_DATA_DIR, E2E_PASSWORD, E2E_PORT } from './env.ts';
import { pebbleInstalled, startPebble } from './pebble.ts';

rmSync(E2E_DATA_DIR, { recursive: true, force: true });
mkdirSync(E2E_DATA_DIR, { recursive: true });
// Free certificates are ordered from a pebble of the run's own, on ports 1000 above the server's.
const pebble = pebbleInstalled() ? startPebble(E2E_DATA_DIR, E2E_PORT + 1000) : null;
// The mail health card's resolver: what the local DNS driver serves, on a port 2000 above the server's.
const E2E_DNS_PORT = E2E_PORT + 2000;
const dns = startDns(E2E_DATA_DIR, E2E_DNS_PORT);

/**
 * The installer offers what the operator packed: here Debian's WordPress files as a plain archive
 * (Debian's own wp-config.php left out, the installer writes one), configured with its SHA-256.
 */
function installerConfig(): string {
  const packages: Record<string, { path: string; sha256: string }> = {};
  const archive = path.join(E2E_DATA_DIR, 'wordpress.tar.gz');
  if (existsSync('/usr/share/wordpress/wp-load.php')) {
    const tar = spawnSync('tar', [
      '-czhf',
      archive,
      '-C',
      '/usr/share',
      '--exclude=wordpress/wp-config.php',
      '--exclude=wordpress/.htaccess',
      'wordpress',
    ]);
    if (tar.status === 0) packages.wordpress = { path: archive, sha256: createHash('sha256').update(readFileSync(archive)).digest('hex') };
  } else console.error('e2e: /usr/share/wordpress is missing (apt-get install wordpress): WordPress shows as unavailable');
  const file = path.join(E2E_DATA_DIR, 'atalaya.config.json');
  writeFileSync(
    file,
    JSON.stringify({
      drivers: { installer: { packages }, dns: { templates: DNS_TEMPLATES } },
      hosting: { mailRecords: { resolver: `127.0.0.1:${E2E_DNS_PORT}` } },
    }),
  );
  return file;
}

/** A provider's named record set (an e-mail provider's MX, SPF and autodiscover), for the template test. */
const DNS_TEMPLATES = [
  {
    name: 'correo-ejemplo',
    label: { es: 'Correo de Ejemplo Mail', en: 'Ejemplo Mail e-mail', ca: 'Correu d’Ejemplo Mail' },
    records: [
      { type: 'MX', value: 'mx1.ejemplo-correo.net.', priority: 10 },
      { type: 'MX', value: 'mx2.ejemplo-correo.net.', priority: 20 },
      { type: 'TXT', value: 'v=spf1 include:_spf.ejemplo-correo.net ~all' },
      { zona: 'autodiscover', type: 'CNAME', value: 'autodiscover.ejemplo-correo.net.' },
    ],
  },
];

const server = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'apps/server/src/server.ts'], {
  stdio: 'inherit',
  // Customers may pick a colour, so the shell's palette is exercised.
  env: {
    ATALAYA_ALLOW_CUSTOMER_COLOR: 'true',
    ...process.env,
    ATALAYA_COMPANY: E2E_COMPANY,
    ATALAYA_DATA_DIR: E2E_DATA_DIR,
    ATALAYA_CONFIG: installerConfig(),
    ATALAYA_DEMO_PASSWORD: E2E_PASSWORD,
    DATABASE_URL: '',
    ...pebble?.env,
  },
});
const stop = () => {
  dns.close();
  pebble?.child.kill('SIGTERM');
  server.kill('SIGTERM');
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => {
  dns.close();
  pebble?.child.kill('SIGTERM');
  process.exit(code ?? 0);
});
