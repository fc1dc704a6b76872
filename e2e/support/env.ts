import { tmpdir } from 'node:os';
import path from 'node:path';

/** E2E_PORT lets several runs go side by side; each gets its own data dir. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 18123);
export const E2E_DATA_DIR = path.join(tmpdir(), `atalaya-e2e-${E2E_PORT}`);
export const E2E_PASSWORD = 'demo-password-e2e';

/** Debian's Chromium without anything that reaches for the network (this machine has none); the tests and benches share them. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
/** The provider's name the test server is configured with: not the default, so a page that ignores the config shows. */
export const E2E_COMPANY = 'Cumbre';
