/**
 * `npm test`: typecheck, lint, unit and integration tests (SQLite, and PostgreSQL when one answers),
 * the web build and the browser tests; says what it skipped and why, and ends with one count line.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

const skipped: string[] = [];
const failedSteps: string[] = [];
let passed = 0;
let failed = 0;
let skippedTests = 0;

function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`✗ ${title} failed`);
    failedSteps.push(title);
  }
  return result.status === 0;
}

async function postgresUrl(): Promise<string | undefined> {
  const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return url;
  } catch (error) {
    skipped.push(`integration tests on PostgreSQL: none reachable at ${url.replace(/\/\/[^@]*@/, '//')} (${(error as Error).message})`);
    return undefined;
  }
}

mkdirSync('.tmp', { recursive: true });
const tsc = 'node_modules/.bin/tsc';
run('typecheck: server', tsc, ['-p', 'apps/server']);
run('typecheck: web', tsc, ['-p', 'apps/web']);
run('typecheck: contract', tsc, ['-p', 'packages/contract']);
run('lint', 'node_modules/.bin/biome', ['check', '.']);

const pgUrl = await postgresUrl();
run(`unit and integration tests (SQLite${pgUrl ? ' and PostgreSQL' : ''})`, 'node_modules/.bin/vitest', ['run', '--reporter=default', '--reporter=json', '--outputFile=.tmp/vitest.json'], {
  ATALAYA_TEST_PG: pgUrl ?? '',
});
if (existsSync('.tmp/vitest.json')) {
  const report = JSON.parse(readFileSync('.tmp/vitest.json', 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skippedTests += report.numPendingTests + report.numTodoTests;
}

const built = run('web build', 'npm', ['run', 'build', '--silent']);
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  skipped.push(`browser tests: ${chromium} not found (Debian: apt-get install chromium)`);
} else if (built) {
  run('browser tests (Debian Chromium, headless)', 'node_modules/.bin/playwright', ['test'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: '.tmp/playwright.json',
  });
  if (existsSync('.tmp/playwright.json')) {
    const stats = JSON.parse(readFileSync('.tmp/playwright.json', 'utf8')).stats;
    passed += stats.expected + stats.flaky;
    failed += stats.unexpected;
    skippedTests += stats.skipped;
  }
}

console.log('');
for (const line of skipped) console.log(`SKIPPED ${line}`);
for (const step of failedSteps) console.log(`FAILED ${step}`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skippedTests} skipped`);
process.exit(failed > 0 || failedSteps.length > 0 ? 1 : 0);
