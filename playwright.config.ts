import { defineConfig } from '@playwright/test';

import { CHROMIUM_ARGS, CHROMIUM_PATH, E2E_PORT } from './e2e/support/env.ts';
import { useCompileCache } from './scripts/compile-cache.ts';
import { useMemoryTmp } from './scripts/memory-tmp.ts';

useCompileCache();
useMemoryTmp();

/** Debian's Chromium, headless, with nothing that reaches for the network. */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  workers: 2,
  // No retries, under CI or not: a test that passes only on a second try is a flaky test to fix, not a pass.
  retries: 0,
  reporter: [['list'], ['json']],
  outputDir: '.tmp/test-results',
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
    trace: 'off',
  },
  webServer: {
    command: 'node --disable-warning=ExperimentalWarning e2e/support/server.ts',
    url: `http://127.0.0.1:${E2E_PORT}/p247/config/get/`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { PORT: String(E2E_PORT), HOST: '127.0.0.1' },
  },
});
