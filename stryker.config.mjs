// @ts-check
/**
 * The StrykerJS settings every module's run shares (decision 020). `npm run mutation`
 * (scripts/mutation.ts) adds, per module, the files to mutate, the tests to run against them, its own
 * incremental file and its reports under .tmp/mutation/<module>/. Never part of `npm test`.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  // The tests come from ATALAYA_MUTATION_TESTS, which scripts/mutation.ts sets per module.
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  // No type checker: TypeScript 7's package has no compiler API for @stryker-mutator/typescript-checker (decision 020).
  checkers: [],
  ignorePatterns: ['.tmp', 'dist', 'data', 'bench', 'e2e', 'apps/web'],
  tempDirName: '.tmp/stryker-tmp',
  cleanTempDir: 'always',
  incremental: true,
  // The machine is shared: one test process at a time.
  concurrency: 1,
  coverageAnalysis: 'perTest',
  // Static mutants (code run while a suite starts: routes registered, module constants, beforeAll)
  // are covered by no single test, so each would rerun every test: they are reported as ignored.
  ignoreStatic: true,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'html', 'json', 'progress-append-only'],
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  thresholds: { high: 90, low: 80, break: null },
};
