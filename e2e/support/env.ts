import { tmpdir } from 'node:os';
import path from 'node:path';

/** E2E_PORT lets several runs go side by side; each gets its own data dir. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 18123);
export const E2E_DATA_DIR = path.join(tmpdir(), `atalaya-e2e-${E2E_PORT}`);
export const E2E_PASSWORD = 'demo-password-e2e';
