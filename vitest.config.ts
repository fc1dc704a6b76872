import { defineConfig } from 'vitest/config';
import { apiRoutes } from './apps/web/apiRoutes.ts';

export default defineConfig({
  // The web's endpoint table (apps/web/src/lib/endpoints.ts) is written from the contract by this plugin.
  plugins: [apiRoutes()],
  test: {
    include: ['apps/*/src/**/*.test.{ts,tsx}', 'apps/*/test/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'bench/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
