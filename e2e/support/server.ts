/** Starts the real server on a fresh temporary data dir for the browser tests; the dir is the tests' too. */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { E2E_DATA_DIR, E2E_PASSWORD } from './env.ts';

rmSync(E2E_DATA_DIR, { recursive: true, force: true });
mkdirSync(E2E_DATA_DIR, { recursive: true });
const server = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'apps/server/src/server.ts'], {
  stdio: 'inherit',
  // Customers may pick a colour, so the shell's palette is exercised.
  env: { ATALAYA_ALLOW_CUSTOMER_COLOR: 'true', ...process.env, ATALAYA_DATA_DIR: E2E_DATA_DIR, ATALAYA_DEMO_PASSWORD: E2E_PASSWORD, DATABASE_URL: '' },
});
const stop = () => server.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => process.exit(code ?? 0));
