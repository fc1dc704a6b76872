import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { horizontalOverflow } from '../shell/helpers.ts';
import { signInContext } from '../support/accounts.ts';
import { E2E_DATA_DIR } from '../support/env.ts';
import { dialog, hostingAccount, toast } from './helpers.ts';

/**
 * The Backups screen against the real server: restic backs the service's web root up into the
 * realm's repository under the e2e data dir, and puts a deleted file back.
 */
test.describe.configure({ timeout: 120_000 });

/** What a customer uploads lands in the service's web root (the local drivers': the data dir's www/). */
function webFile(reference: string, name: string, text: string) {
  const root = path.join(E2E_DATA_DIR, 'www', reference);
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  const file = path.join(root, 'docs', name);
  writeFileSync(file, text);
  return { root, file };
}

/** The backup card of the list that is done, the latest first. */
const doneBackup = (page: Page) =>
  page
    .getByTestId('backup')
    .filter({ has: page.getByTestId('backup-status-done') })
    .first();

/** Opens a folder, then an entry's menu, by the names the browser shows. */
async function openEntryMenu(page: Page, folders: string[], entry: string) {
  for (const folder of folders) await page.getByRole('button', { name: `Abrir la carpeta ${folder}`, exact: true }).click();
  await page.getByRole('button', { name: `Acciones de ${entry}`, exact: true }).click();
}

/** A backup of the service asked for through the API, as the writer's browser would, and waited for. */
async function backupThroughApi(context: BrowserContext, id: number) {
  const headers = { 'x-dd-request': '1' };
  expect((await context.request.post(`/p247/service/${id}/backups/`, { headers })).ok()).toBe(true);
  await expect
    .poll(
      async () => {
        const list = await (await context.request.get(`/p247/service/${id}/backups/`, { headers })).json();
        return list.data.backups[0]?.status;
      },
      { timeout: 60_000 },
    )
    .toBe('done');
}

test('on a phone a customer backs up, deletes a file, and restores it in place and as a copy, seeing the progress and where it went', async ({
  page,
  context,
}) => {
  const { account, reference, id } = await hostingAccount();
  const text = `presupuesto ${reference}\n`;
  const { root, file } = webFile(reference, 'presupuesto.txt', text);
  await page.setViewportSize({ width: 375, height: 800 });
  await signInContext(context, account, 'admin');
  await page.goto(`/admin/${id}/service/backups/`);
  await expect(page.getByText('Aún no hay copias de este servicio')).toBeVisible();
  await expect(page.getByText(/Cada noche, a partir de las \d\d:\d\d, se hace una copia automática/)).toBeVisible();

  await page.getByTestId('backup-now').click();
  await toast(page, 'Copia de seguridad en marcha');
  // One at a time: the button waits while the backup runs.
  const card = page.getByTestId('backup').first();
  await expect(card).toContainText('A petición');
  await expect(card.getByTestId('backup-status-done')).toBeVisible({ timeout: 60_000 });
  await expect(card).toContainText('Web');
  await expect(card).toContainText(/Añadió .+ \(en total .+\)/);
  await expect(page.getByTestId('backups-used-today')).toHaveText('Copias pedidas hoy: 1 de 3');

  rmSync(file);
  await card.getByRole('button', { name: /^Ver archivos/ }).click();
  const browser = page.getByTestId('backup-files');
  await expect(browser.getByRole('button', { name: 'Abrir la carpeta Web' })).toBeVisible();
  await openEntryMenu(page, ['Web', 'docs'], 'presupuesto.txt');
  await expect(browser.getByRole('navigation', { name: 'Carpeta' })).toContainText('Inicio');
  await expect(browser.getByRole('navigation', { name: 'Carpeta' })).toContainText('docs');
  await page.getByRole('menuitem', { name: 'Restaurar' }).click();
  const form = dialog(page);
  await expect(form.getByRole('radio', { name: 'Como copia, junto a lo actual' })).toBeChecked();
  await expect(form.getByTestId('replace-warning')).toHaveCount(0);
  await form.getByRole('radio', { name: 'Sustituyendo lo actual' }).check();
  await expect(form.getByTestId('replace-warning')).toContainText('lo que se creó o cambió después se pierde');
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await form.getByRole('button', { name: 'Restaurar' }).click();
  await toast(page, 'Restauración en marcha');

  const restore = page.getByTestId('backup-restore').first();
  await expect(restore).toContainText('Sustituyendo');
  await expect(restore).toContainText('Web /docs/presupuesto.txt');
  await expect(restore.getByTestId(/^backup-status-(queued|running|done)$/)).toBeVisible();
  await expect(restore.getByTestId('restore-result')).toHaveText('Restaurado en su sitio', { timeout: 60_000 });
  expect(readFileSync(file, 'utf8')).toBe(text);
  // Replacing took a backup of what it overwrote first.
  await expect(page.getByTestId('backup').filter({ hasText: 'Antes de restaurar' })).toHaveCount(1);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

  // Back goes to the folder the restore was started from; this time a copy beside the live file.
  await page.goBack();
  await expect(browser.getByRole('button', { name: 'Acciones de presupuesto.txt' })).toBeVisible();
  await browser.getByRole('button', { name: 'Acciones de presupuesto.txt' }).click();
  await page.getByRole('menuitem', { name: 'Restaurar' }).click();
  await dialog(page).getByRole('button', { name: 'Restaurar' }).click();
  await toast(page, 'Restauración en marcha');
  const copy = page.getByTestId('backup-restore').first();
  await expect(copy).toContainText('Como copia');
  await expect(copy.getByTestId('restore-result')).toHaveText(/^Restaurado en restored-\d{8}-\d{4}/, { timeout: 60_000 });
  const folder = readdirSync(root).find((name) => name.startsWith('restored-'));
  expect(folder).toBeDefined();
  expect(readFileSync(path.join(root, folder!, 'docs', 'presupuesto.txt'), 'utf8')).toBe(text);
  expect(existsSync(file)).toBe(true);
});

test('a reader lists the backups, browses and downloads a file as .tar.gz, and is offered neither a backup nor a restore', async ({
  page,
  context,
}) => {
  const { account, reference, id } = await hostingAccount();
  webFile(reference, 'leeme.txt', 'hola\n');
  await signInContext(context, account, 'admin');
  await backupThroughApi(context, id);
  await signInContext(context, account, 'viewer');
  await page.goto(`/admin/${id}/service/backups/`);
  await expect(doneBackup(page)).toBeVisible();
  await expect(page.getByTestId('backup-now')).toHaveCount(0);
  await doneBackup(page)
    .getByRole('button', { name: /^Ver archivos/ })
    .click();
  await openEntryMenu(page, ['Web', 'docs'], 'leeme.txt');
  await expect(page.getByRole('menuitem', { name: 'Restaurar' })).toHaveCount(0);
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Descargar (.tar.gz)' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.tar\.gz$/);

  // A folder the backup does not hold, or one outside it, is the server's message in the browser.
  const backup = new URL(page.url()).searchParams.get('backup');
  await page.goto(`/admin/${id}/service/backups/?backup=${backup}&path=/web/nada`);
  await expect(page.getByTestId('backup-files').getByRole('alert')).toHaveText('Esta copia no tiene nada en esa ruta');
  await page.goto(`/admin/${id}/service/backups/?backup=${backup}&path=/web/../../etc`);
  await expect(page.getByTestId('backup-files').getByRole('alert')).toHaveText('La ruta sale de la copia de seguridad');
});
