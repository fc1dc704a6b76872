import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { apiRoutes } from './apps/web/apiRoutes.ts';
import { bootTexts } from './apps/web/bootTexts.ts';
import { useCompileCache } from './scripts/compile-cache.ts';
import { useMemoryTmp } from './scripts/memory-tmp.ts';

useCompileCache();
useMemoryTmp();

export default defineConfig({
  // The web's endpoint table (apps/web/src/lib/endpoints.ts) and start-up's texts per language come from these plugins.
  plugins: [apiRoutes(), bootTexts(fileURLToPath(new URL('./apps/web/src/locales/boot.ts', import.meta.url)))],
  test: {
    include: ['apps/*/src/**/*.test.{ts,tsx}', 'apps/*/test/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'bench/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One migrated store of each kind that every test store is copied from (decision 056).
    globalSetup: ['apps/server/test/templates.ts'],
    pool: 'forks',
    maxWorkers: 2,
  },
});
