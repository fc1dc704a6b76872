import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutation` runs against one module's mutants: the globs in
 * ATALAYA_MUTATION_TESTS (comma-separated), chosen per module in scripts/mutation.ts. On SQLite.
 */
const tests = (process.env.ATALAYA_MUTATION_TESTS ?? '').split(',').filter(Boolean);
if (!tests.length) throw new Error('ATALAYA_MUTATION_TESTS is empty: run `npm run mutation`, which sets it per module');

export default defineConfig({
  test: {
    include: tests,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
