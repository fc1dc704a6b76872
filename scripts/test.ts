/**
 * `npm test`: typecheck, lint, unit and integration tests (SQLite, and PostgreSQL when one answers),
 * the web build and the browser tests; says what it skipped and why, and ends with one count line.
 *
 * Nothing shrinks in silence: a suite that cannot run still counts its tests as skipped (the
 * PostgreSQL half without PostgreSQL, the browser tests without Chromium), and under CI=true any
 * such gap (PostgreSQL, Chromium, MariaDB or a daemon missing) fails the run, naming what is missing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import pg from 'pg';
import { useCompileCache } from './compile-cache.ts';

useCompileCache();

const CI = Boolean(process.env.CI);
const skipped: string[] = [];
const missingInCi: string[] = [];
const failedSteps: string[] = [];
let passed = 0;
let failed = 0;
let skippedTests = 0;
const timings: string[] = [];

/** A step whose output streams as it comes (vitest's, playwright's): one such step at a time. */
function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  console.log(`\n▶ ${title}`);
  const started = performance.now();
  return new Promise<boolean>((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', (error) => console.error(error));
    child.on('close', (code) => resolve(ended(title, code, started)));
  });
}

/**
 * A step that runs beside another (typecheck and lint beside the web build and vitest): its output
 * is held and printed whole when it ends, so that two steps' lines never interleave.
 */
function runBeside(title: string, command: string, args: string[]) {
  const started = performance.now();
  return new Promise<boolean>((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error}\n`)));
    child.on('close', (code) => {
      console.log(`\n▶ ${title}`);
      process.stdout.write(Buffer.concat(output));
      resolve(ended(title, code, started));
    });
  });
}

/** A step's end, with its time: docs/testing.md holds each suite to a budget of seconds. */
function ended(title: string, code: number | null, started: number) {
  const seconds = Math.round((performance.now() - started) / 1000);
  timings.push(`${title}: ${seconds} s`);
  if (code !== 0) {
    console.error(`✗ ${title} failed`);
    failedSteps.push(title);
  }
  return code === 0;
}

/** Steps one after the other, as one lane beside the rest. */
async function lane(steps: [string, string, string[]][]) {
  for (const [title, command, args] of steps) await runBeside(title, command, args);
}

/** A suite that cannot run here: a skip outside CI, a failure naming the missing piece under CI. */
function cannotRun(what: string) {
  (CI ? missingInCi : skipped).push(what);
}

async function postgresUrl(): Promise<string | undefined> {
  const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return url;
  } catch (error) {
    cannotRun(`integration tests on PostgreSQL: none reachable at ${url.replace(/\/\/[^@]*@/, '//')} (${(error as Error).message})`);
    return undefined;
  }
}

/** A JSON report written by this run, or null: a stale one from an earlier run must never count. */
function report(file: string) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

const VITEST_JSON = '.tmp/vitest.json';
const PLAYWRIGHT_JSON = '.tmp/playwright.json';
const SKIP_LOG = '.tmp/skipped-suites.txt';
mkdirSync('.tmp', { recursive: true });
for (const file of [VITEST_JSON, PLAYWRIGHT_JSON, SKIP_LOG]) rmSync(file, { force: true });

// On 2 cores (docs/testing.md): the typechecks and the lint, which read the sources and start no
// daemon, run as one lane beside the web build and then beside vitest; the web build comes first,
// as some tests serve apps/web/dist and must never see it half written.
const tsc = 'node_modules/.bin/tsc';
const checks = lane([
  ['typecheck: server', tsc, ['-p', 'apps/server']],
  ['typecheck: web', tsc, ['-p', 'apps/web']],
  ['typecheck: contract', tsc, ['-p', 'packages/contract']],
  ['typecheck: test registry', tsc, ['-p', 'apps/registry']],
  ['lint', 'node_modules/.bin/biome', ['check', '.']],
]);
const built = await runBeside('web build', 'npm', ['run', 'build', '--silent']);

const pgUrl = await postgresUrl();
await run(
  `unit and integration tests (SQLite${pgUrl ? ' and PostgreSQL' : CI ? '; PostgreSQL missing' : '; PostgreSQL half skipped'})`,
  'node_modules/.bin/vitest',
  ['run', '--reporter=default', '--reporter=json', `--outputFile=${VITEST_JSON}`],
  { ATALAYA_TEST_PG: pgUrl ?? '', ATALAYA_SKIP_LOG: SKIP_LOG },
);
const vitest = report(VITEST_JSON);
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skippedTests += vitest.numPendingTests + vitest.numTodoTests;
  // A file that failed before its tests were collected has no tests to count: name it instead.
  const unloaded = vitest.testResults.filter((file: { status: string; assertionResults: unknown[] }) => {
    return file.status === 'failed' && file.assertionResults.length === 0;
  });
  if (unloaded.length) failedSteps.push(`${unloaded.length} test files failed before any of their tests ran (their tests are not counted)`);
} else {
  failedSteps.push('unit and integration tests: no report written, so none of them is counted');
}
// Suites that skipped themselves for want of a backend (under CI they failed instead).
if (existsSync(SKIP_LOG)) {
  const reasons = new Set(readFileSync(SKIP_LOG, 'utf8').split('\n').filter(Boolean));
  for (const reason of reasons) skipped.push(reason);
}

/** The browser tests that will not run, counted as skipped: listing them needs no browser. */
function countBrowserTestsAsSkipped() {
  const listed = spawnSync('node_modules/.bin/playwright', ['test', '--list', '--reporter=list'], { encoding: 'utf8' });
  const total = Number(/Total: (\d+) tests?/.exec(listed.stdout ?? '')?.[1]);
  if (Number.isInteger(total)) skippedTests += total;
  else failedSteps.push('browser tests: could not even list them');
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  cannotRun(`browser tests: ${chromium} not found (Debian: apt-get install chromium)`);
  countBrowserTestsAsSkipped();
} else if (!built) {
  countBrowserTestsAsSkipped();
} else {
  await run('browser tests (Debian Chromium, headless)', 'node_modules/.bin/playwright', ['test'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_JSON,
    // A spec that starts a test registry shares the server tests' harness, which asks for it.
    ATALAYA_TEST_PG: pgUrl ?? '',
  });
  const stats = report(PLAYWRIGHT_JSON)?.stats;
  if (stats) {
    passed += stats.expected;
    // A test that passed only on a retry is not a pass (playwright.config.ts retries none anyway).
    failed += stats.unexpected + stats.flaky;
    skippedTests += stats.skipped;
  } else {
    failedSteps.push('browser tests: no report written, so none of them is counted');
  }
}

await checks;
console.log('');
for (const line of timings) console.log(`TIME ${line}`);
for (const line of skipped) console.log(`SKIPPED ${line}`);
for (const line of missingInCi) console.log(`MISSING under CI=true (nothing may be skipped there): ${line}`);
for (const step of failedSteps) console.log(`FAILED ${step}`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skippedTests} skipped`);
process.exit(failed > 0 || failedSteps.length > 0 || missingInCi.length > 0 ? 1 : 0);
