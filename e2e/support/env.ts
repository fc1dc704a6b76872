import { tmpdir } from 'node:os';
import path from 'node:path';

export const E2E_DATA_DIR = path.join(tmpdir(), 'atalaya-e2e');
export const E2E_PASSWORD = 'demo-password-e2e';
