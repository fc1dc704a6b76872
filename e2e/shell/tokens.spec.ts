import { expect, test } from '@playwright/test';
import { signInContext } from '../support/accounts.ts';
import { fullAccount, seriousViolations, TEST_PASSWORD } from './helpers.ts';

test('an API token: created in Preferences and shown once, listed, working, then revoked', async ({ page, context, request }) => {
  // Two accessibility scans on top of the flow: slow on a loaded machine.
  test.setTimeout(60_000);
  const account = await fullAccount();
  await signInContext(context, account, 'ana');
  await page.goto('/admin/preferences/');
  await expect(page.getByText('No tienes tokens')).toBeVisible();
  await expect(page.getByText(/Los tokens se revocan para siempre cuando cambias tu contraseña/)).toBeVisible();
  await page.getByRole('button', { name: 'Crear token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Crear token' });
  await expect(dialog.getByText(/Los tokens se revocan para siempre/)).toBeVisible();
  await dialog.getByLabel('Nombre').fill('informes');
  await dialog.getByRole('button', { name: 'Todo lectura' }).click();
  await dialog.getByRole('radiogroup', { name: 'Zona DNS' }).getByText('Escritura').click();
  await dialog.getByLabel('Contraseña actual').fill(TEST_PASSWORD);
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Crear token' }).click();

  await expect(page.locator('.mantine-Notification-root')).toHaveText('Token creado. Cópialo ahora: no se volverá a mostrar');
  const shown = page.getByRole('dialog', { name: 'Token creado' });
  const secret = await shown.getByRole('textbox', { name: 'Token creado' }).inputValue();
  expect(secret).toMatch(/^atl_[A-Za-z0-9_-]{43}$/);
  await shown.getByRole('button', { name: 'Ya lo he copiado' }).click();
  await expect(shown).toBeHidden();

  const list = page.getByRole('table', { name: 'Tokens de API' });
  const row = list.getByRole('row', { name: /informes/ });
  await expect(row).toContainText('Zona DNS: Escritura');
  await expect(row).toContainText('Sin usar');
  expect(await seriousViolations(page)).toEqual([]);
  // Shown once: the page holds the secret nowhere any more.
  expect(await page.content()).not.toContain(secret.slice(4));

  // The token works for a program: no cookie, no CSRF header.
  const call = () => request.get('/p247/permission/list/', { headers: { authorization: `Bearer ${secret}` } });
  expect((await call()).status()).toBe(200);
  await page.reload();
  await expect(row).toContainText('127.0.0.1');

  await row.getByRole('button', { name: 'Revocar' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revocar el token' });
  await expect(confirm).toContainText('«informes»');
  await confirm.getByRole('button', { name: 'Revocar' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('No tienes tokens')).toBeVisible();
  expect((await call()).status()).toBe(401);
});
