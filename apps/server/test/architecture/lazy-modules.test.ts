import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

/**
 * Libraries only some installations use: each loads with its first use (a MariaDB connection, a
 * PostgreSQL store, an EPP frame, a DNS check, an archive to unpack), so the idle panel of
 * `npm start` (SQLite, local drivers) stays inside its memory budget (bench/run.ts).
 */
const LAZY = ['mysql2', 'pg', 'fast-xml-parser', 'dns-packet', 'tar-stream', 'yauzl', 'i18n-iso-countries'];

/**
 * The panel's own code that only some installations run: the EPP registry driver loads with its
 * first call (drivers/lazy.ts), not where the driver is picked (decision 060).
 */
const LAZY_SOURCES = ['drivers/registry/epp/driver.ts', 'drivers/registry/epp/session.ts'];

it('starts the panel on SQLite and the local drivers without loading the libraries and drivers only other set-ups use', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'atalaya-lazy-'));
  const record = path.join(dir, 'modules.txt');
  const server = spawn(
    process.execPath,
    [
      '--disable-warning=ExperimentalWarning',
      '--import',
      path.join(import.meta.dirname, 'module-recorder.ts'),
      path.resolve(import.meta.dirname, '../../src/server.ts'),
    ],
    {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        ATALAYA_DATA_DIR: dir,
        ATALAYA_DEMO_PASSWORD: 'lazy-demo-pass-1',
        DATABASE_URL: '',
        RECORD_MODULES_TO: record,
      },
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    server.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Atalaya is running at')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  server.kill('SIGTERM');
  await new Promise((resolve) => server.on('exit', resolve));
  const loaded = readFileSync(record, 'utf8').split('\n');
  // The recorder works: the store's own library is in the list.
  expect(loaded.some((url) => url.includes('/node_modules/kysely/'))).toBe(true);
  const packages = LAZY.filter((name) => loaded.some((url) => url.includes(`/node_modules/${name}/`)));
  expect(packages).toEqual([]);
  const sources = LAZY_SOURCES.filter((file) => loaded.some((url) => url.endsWith(`/apps/server/src/${file}`)));
  expect(sources).toEqual([]);
}, 90_000);

/** The modules one `npm run admin -- <args>` loads, as module-recorder.ts writes them. */
function adminLoads(...args: string[]) {
  const dir = mkdtempSync(path.join(tmpdir(), 'atalaya-lazy-cli-'));
  const record = path.join(dir, 'modules.txt');
  const result = spawnSync(
    process.execPath,
    [
      '--disable-warning=ExperimentalWarning',
      '--import',
      path.join(import.meta.dirname, 'module-recorder.ts'),
      path.resolve(import.meta.dirname, '../../src/cli/main.ts'),
      ...args,
    ],
    { env: { ...process.env, ATALAYA_DATA_DIR: dir, DATABASE_URL: '', RECORD_MODULES_TO: record }, encoding: 'utf8' },
  );
  expect(result.status, result.stderr).toBe(0);
  return readFileSync(record, 'utf8').split('\n').filter(Boolean);
}

// Each test of the CLI starts it as a process of its own (cli.test.ts): what one command loads, every start pays.
it("answers the admin CLI's help without loading the store, the runtime or any command's modules", () => {
  const loaded = adminLoads('help');
  expect(loaded.some((url) => url.endsWith('/src/cli/commands.ts'))).toBe(true);
  expect(loaded.filter((url) => url.includes('/node_modules/'))).toEqual([]);
  expect(loaded.filter((url) => /\/src\/(runtime|store\/db|modules\/provisioning\/accounts)\.ts$/.test(url))).toEqual([]);
});

it('runs an admin command with the runtime and its own modules, not the node CA another command needs', () => {
  const loaded = adminLoads('realm-list');
  expect(loaded.some((url) => url.endsWith('/src/runtime.ts'))).toBe(true);
  expect(loaded.filter((url) => url.includes('/node_modules/@peculiar/') || url.endsWith('/src/nodes/ca.ts'))).toEqual([]);
});
