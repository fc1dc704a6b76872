import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, expect, test } from '@playwright/test';
import type { TestRegistry } from '../../apps/registry/src/server.ts';
import { loadConfig } from '../../apps/server/src/config/config.ts';
import { createSession, SESSION_COOKIE } from '../../apps/server/src/modules/session/sessions.ts';
import { openStore, type Store } from '../../apps/server/src/store/db.ts';
import { createAccount } from '../../apps/server/test/fixtures.ts';
import { CLIENT_ID, certificateFiles, PASSWORD, startTestRegistry } from '../../apps/server/test/registry-epp/harness.ts';
import { unique } from '../support/accounts.ts';
import { E2E_PORT } from '../support/env.ts';

/**
 * The one browser test on the `epp` driver: a server of its own (the suite's server runs the local
 * registry) talking to a test registry this spec starts, on a port and data dir of their own.
 */
const PORT = E2E_PORT + 7;
const DATA_DIR = path.join(tmpdir(), `atalaya-e2e-epp-${PORT}`);
let registry: TestRegistry;
let server: ChildProcess;
const withStore = async <T>(work: (store: Store) => Promise<T>) => {
  const store = await openStore(loadConfig({ ATALAYA_DATA_DIR: DATA_DIR, DATABASE_URL: '' }));
  try {
    return await work(store);
  } finally {
    await store.destroy();
  }
};

test.beforeAll(async () => {
  test.setTimeout(90_000);
  rmSync(DATA_DIR, { recursive: true, force: true });
  mkdirSync(DATA_DIR, { recursive: true });
  const certs = certificateFiles();
  registry = await startTestRegistry(certs);
  const config = path.join(DATA_DIR, 'atalaya.config.json');
  const { certFile, keyFile, caFile } = certs;
  writeFileSync(
    config,
    JSON.stringify({
      drivers: {
        registry: {
          driver: 'epp',
          host: 'localhost',
          port: registry.port,
          clientId: CLIENT_ID,
          password: PASSWORD,
          certFile,
          keyFile,
          caFile,
        },
      },
    }),
  );
  server = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'apps/server/src/server.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', ATALAYA_DATA_DIR: DATA_DIR, ATALAYA_CONFIG: config, DATABASE_URL: '' },
  });
  for (let i = 0; i < 120; i++) {
    if (
      await fetch(`http://127.0.0.1:${PORT}/p247/config/get/`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the epp server did not start');
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await registry?.close();
});

/** A writer's page on a domain of its own, which the writer registers at the test registry with the register button (decision 051). */
async function openEppDomain(browser: Browser) {
  const DOMAIN = unique('registro-e2e.com');
  const account = await withStore((store) =>
    createAccount(store, { users: { w: 'all=write' }, items: [{ reference: DOMAIN, domain: true }] }),
  );
  const token = await withStore((store) => createSession(store, account.users.w));
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${PORT}` });
  await context.addCookies([{ name: SESSION_COOKIE, value: token, domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Strict' }]);
  const page = await context.newPage();
  await page.goto(`/admin/${account.items[DOMAIN]}/domain/`);
  // Read, the domain is not at the registry: nothing was sent there for it.
  await expect(page.getByTestId('registration-state')).toBeVisible({ timeout: 20_000 });
  expect(registry.state.data.domains[DOMAIN]).toBeUndefined();
  await page.getByTestId('domain-unregistered').getByRole('button', { name: 'Registrar' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Registrar' }).click();
  await expect(page.getByTestId('contact-registrant')).toBeVisible({ timeout: 20_000 });
  expect(registry.state.data.domains[DOMAIN]).toBeDefined();
  return { DOMAIN, itemId: account.items[DOMAIN], page, context };
}

test('a status only the registry sets (serverHold) shows on the domain screen once the panel reads the domain again', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { DOMAIN, itemId, page, context } = await openEppDomain(browser);
  await expect(page.getByTestId('server-statuses')).toHaveCount(0);
  registry.serverStatus('domain', DOMAIN, ['serverHold']);
  // What the poll does on the registry's notice (tested through the API): the domain's row is
  // touched, so the kept reads of it refresh.
  await withStore((store) => store.updateTable('domain').set({ updated_at: 1 }).where('item_id', '=', itemId).execute());
  await page.reload();
  await expect(page.getByTestId('server-statuses').getByText('Suspendido por el registro')).toBeVisible({ timeout: 20_000 });
  await context.close();
});

test('a writer edits the name servers of a domain on the epp registry: pending while the registry answers, then done', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { DOMAIN, page, context } = await openEppDomain(browser);

  // The registry holds the update unanswered (its reads still answer, on the driver's other
  // session): the change waits in the outbox and the screen says so. A domain without hosting
  // edits its own servers straight away (no choice of the provider's).
  registry.setFaults({ hold: ['domain:update'] });
  await page.getByTestId('summary-dns').getByRole('button', { name: 'Editar' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Servidor DNS 1' }).fill('ns1.registro-e2e.net');
  await dialog.getByRole('textbox', { name: 'Servidor DNS 2' }).fill('ns2.registro-e2e.net');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  const change = page.getByTestId('change-nameServers');
  await expect(change.getByTestId('state-pending')).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => registry.heldCount(), { timeout: 20_000 }).toBe(1);
  await expect(change.getByTestId('state-pending')).toBeVisible();
  expect(registry.state.data.domains[DOMAIN].hostObjs).not.toContain('ns1.registro-e2e.net');
  registry.clearFaults();

  // Done: the badge goes, the registry holds the servers and the summary shows them.
  await expect(page.getByTestId('registry-changes')).toBeHidden({ timeout: 20_000 });
  await expect(page.getByTestId('summary-dns').getByText('ns1.registro-e2e.net')).toBeVisible();
  expect(registry.state.data.domains[DOMAIN].hostObjs).toEqual(['ns1.registro-e2e.net', 'ns2.registro-e2e.net']);
  await context.close();
});
