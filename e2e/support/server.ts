/** Starts the real server on a fresh temporary data dir for the browser tests; the dir is the tests' too. */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { E2E_COMPANY, E2E_DATA_DIR, E2E_PASSWORD, E2E_PORT } from './env.ts';
import { pebbleInstalled, startPebble } from './pebble.ts';

rmSync(E2E_DATA_DIR, { recursive: true, force: true });
mkdirSync(E2E_DATA_DIR, { recursive: true });
// Free certificates are ordered from a pebble of the run's own, on ports 1000 above the server's.
const pebble = pebbleInstalled() ? startPebble(E2E_DATA_DIR, E2E_PORT + 1000) : null;
const server = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'apps/server/src/server.ts'], {
  stdio: 'inherit',
  // Customers may pick a colour, so the shell's palette is exercised.
  env: {
    ATALAYA_ALLOW_CUSTOMER_COLOR: 'true',
    ...process.env,
    ATALAYA_COMPANY: E2E_COMPANY,
    ATALAYA_DATA_DIR: E2E_DATA_DIR,
    ATALAYA_DEMO_PASSWORD: E2E_PASSWORD,
    DATABASE_URL: '',
    ...pebble?.env,
  },
});
const stop = () => {
  pebble?.child.kill('SIGTERM');
  server.kill('SIGTERM');
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => {
  pebble?.child.kill('SIGTERM');
  process.exit(code ?? 0);
});
