import { expect, test } from '@playwright/test';
import { fillSignIn } from '../shell/helpers.ts';
import { endSessions, signInContext, TEST_PASSWORD, withE2EStore } from '../support/accounts.ts';
import { dialog, hostingAccount, rowAction, toast } from './helpers.ts';

test('FTP users: create with .{reference}, folder checked, edit folder, change password, delete', async ({ page, context }) => {
  const { account, reference, id } = await hostingAccount();
  await signInContext(context, account, 'admin');
  await page.goto(`/admin/${id}/service/ftp/`);
  await page.getByTestId('ftp-create').click();
  const form = dialog(page);
  await expect(form.getByText(`.${reference}`)).toBeVisible();
  await form.getByLabel('Usuario').fill('web');
  await form.getByLabel('Carpeta').fill('../fuera');
  await form.getByRole('button', { name: 'Crear' }).click();
  await expect(form.getByText('Carpeta no válida: debe quedar dentro del espacio web')).toBeVisible();
  await form.getByLabel('Carpeta').fill('/public_html');
  await form.getByRole('button', { name: 'Crear' }).click();
  await toast(page, 'Usuario FTP creado');
  const login = `web.${reference}`;
  const row = page.getByRole('row', { name: new RegExp(login.replace(/\./g, '\\.')) });
  await expect(row).toContainText('/public_html');

  await rowAction(page, login, 'Editar carpeta');
  await dialog(page).getByLabel('Carpeta').fill('/public_html/blog');
  await dialog(page).getByRole('button', { name: 'Guardar' }).click();
  await toast(page, 'Usuario FTP guardado');
  await expect(row).toContainText('/public_html/blog');

  await rowAction(page, login, 'Cambiar contraseña');
  await dialog(page).locator('input[name="password"]').fill('Otra-clave-ftp1');
  await dialog(page).getByRole('button', { name: 'Guardar' }).click();
  await toast(page, 'Contraseña cambiada');

  await rowAction(page, login, 'Eliminar');
  await dialog(page).getByRole('button', { name: 'Eliminar' }).click();
  await toast(page, 'Usuario FTP eliminado');
  await expect(row).toHaveCount(0);
});

test('databases: create with a generated name, show and change the password, external access, delete', async ({ page, context }) => {
  const { account, id } = await hostingAccount();
  await signInContext(context, account, 'admin');
  await page.goto(`/admin/${id}/service/ddbb/`);
  await page.getByTestId('ddbb-create').click();
  await dialog(page).locator('input[name="password"]').fill('Base-datos-123');
  await dialog(page).getByRole('button', { name: 'Crear' }).click();
  await toast(page, 'Base de datos creada');
  const row = page.getByRole('row', { name: /_1/ });
  await expect(row).toBeVisible();
  const name = (await row.getByRole('cell').first().innerText()).split(/\s/)[0];

  await rowAction(page, name, 'Ver contraseña');
  await expect(page.getByTestId('shown-password')).toHaveText('Base-datos-123');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');

  await rowAction(page, name, 'Cambiar contraseña');
  await dialog(page).locator('input[name="password"]').fill('Nueva-clave-db9');
  await dialog(page).getByRole('button', { name: 'Guardar' }).click();
  await toast(page, 'Contraseña cambiada');
  await rowAction(page, name, 'Ver contraseña');
  await expect(page.getByTestId('shown-password')).toHaveText('Nueva-clave-db9');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');

  await rowAction(page, name, 'Activar acceso externo');
  await dialog(page).getByRole('button', { name: 'Confirmar' }).click();
  await toast(page, 'Acceso externo activado');
  await expect(row).toContainText('Acceso externo');

  const download = page.waitForEvent('download');
  await rowAction(page, name, 'Descargar copia');
  expect((await download).suggestedFilename()).toMatch(new RegExp(`^Backup-${name}-.*\\.sql$`));

  await rowAction(page, name, 'Eliminar');
  await dialog(page).getByRole('button', { name: 'Eliminar' }).click();
  await toast(page, 'Base de datos eliminada');
  await expect(row).toHaveCount(0);
});

test('a database dump goes through the API client: an expired session opens the login dialog and the download goes on; a refused dump shows its toast', async ({
  page,
  context,
}) => {
  const { account, id } = await hostingAccount();
  await signInContext(context, account, 'admin');
  await context.request.post(`/p247/service/${id}/ddbb/create/`, {
    headers: { 'x-dd-request': '1' },
    form: { password: 'Clave-segura-1' },
  });
  await page.goto(`/admin/${id}/service/ddbb/`);
  const row = page.getByRole('row', { name: /_1/ });
  await expect(row).toBeVisible();
  const name = (await row.getByRole('cell').first().innerText()).split(/\s/)[0];
  await expect(row.getByTestId('state-pending')).toHaveCount(0);

  // The session ends between the write's permission re-check and the download itself, so the
  // download is the call that meets status 101.
  await page.route(`**/p247/permission/${id}/`, async (route) => {
    const response = await route.fetch();
    await endSessions(account, 'admin');
    await route.fulfill({ response });
  });
  const dumpAnswers: number[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/dump/')) dumpAnswers.push(response.status());
  });
  const download = page.waitForEvent('download');
  await rowAction(page, name, 'Descargar copia');
  const expired = page.getByRole('dialog', { name: 'Sesión caducada' });
  await expect(expired).toBeVisible();
  await (await fillSignIn(page, account.realm, 'admin', TEST_PASSWORD)).click();
  expect((await download).suggestedFilename()).toMatch(new RegExp(`^Backup-${name}-.*\\.sql$`));
  await expect(expired).toBeHidden();
  expect(dumpAnswers).toEqual([401, 200]);
  await page.unrouteAll();

  // A database its server no longer has: the dump is refused in the envelope, and that shows as a toast.
  await withE2EStore((store) => store.deleteFrom('local_backend').where('driver', '=', 'databases').where('key', '=', name).execute());
  let dumped = false;
  page.on('download', () => {
    dumped = true;
  });
  await rowAction(page, name, 'Descargar copia');
  await toast(page, 'El cambio aún se está aplicando. Inténtalo de nuevo en unos segundos');
  expect(dumped).toBe(false);
});
