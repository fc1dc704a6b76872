import { expect, test } from '@playwright/test';
import { signInContext } from '../support/accounts.ts';
import { dialog, hostingAccount, rowAction, toast } from './helpers.ts';

test('mail accounts: create with the generated password, show it, change it, delete', async ({ page, context }) => {
  const { account, reference, id } = await hostingAccount();
  await signInContext(context, account, 'admin');
  await page.goto(`/admin/${id}/mail/`);
  await expect(page.getByRole('heading', { name: 'Correo' })).toBeVisible();

  await page.getByTestId('mail-create').click();
  await page.getByRole('menuitem', { name: 'Crear cuenta de correo' }).click();
  const form = dialog(page);
  const password = form.locator('input[name="password"]');
  const generated = await password.inputValue();
  expect(generated).toHaveLength(14);
  await form.getByRole('button', { name: 'Generar otra contraseña' }).click();
  const fresh = await password.inputValue();
  expect(fresh).toHaveLength(14);
  expect(fresh).not.toBe(generated);
  // The fixed @domain after the name stays inside the field's border.
  const field = (await form.getByLabel('Nombre').boundingBox())!;
  const suffix = (await form.getByText(`@${reference}`).boundingBox())!;
  expect(suffix.x + suffix.width).toBeLessThanOrEqual(field.x + field.width);
  await form.getByLabel('Nombre').fill('ventas');
  await form.getByRole('button', { name: 'Crear' }).click();
  await toast(page, 'Cuenta de correo creada');
  const row = page.getByRole('row', { name: new RegExp(`ventas@${reference}`) });
  await expect(row).toBeVisible();

  await rowAction(page, `ventas@${reference}`, 'Ver contraseña');
  await expect(page.getByTestId('shown-password')).toHaveText(fresh);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toHaveCount(0);

  await rowAction(page, `ventas@${reference}`, 'Cambiar contraseña');
  await dialog(page).locator('input[name="password"]').fill('corta');
  await dialog(page).getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog(page).getByText('La contraseña debe tener al menos 8 caracteres')).toBeVisible();
  await dialog(page).locator('input[name="password"]').fill('Una-clave-nueva-9');
  await dialog(page).getByRole('button', { name: 'Guardar' }).click();
  await toast(page, 'Contraseña cambiada');
  await rowAction(page, `ventas@${reference}`, 'Ver contraseña');
  await expect(page.getByTestId('shown-password')).toHaveText('Una-clave-nueva-9');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');

  await rowAction(page, `ventas@${reference}`, 'Eliminar');
  await dialog(page).getByRole('button', { name: 'Eliminar' }).click();
  await toast(page, 'Cuenta de correo eliminada');
  await expect(row).toHaveCount(0);
});

test('aliases: targets checked as typed, create, edit, filter by type, delete', async ({ page, context }) => {
  const { account, reference, id } = await hostingAccount();
  await signInContext(context, account, 'admin');
  await page.goto(`/admin/${id}/mail/`);
  await page.getByTestId('mail-create').click();
  await page.getByRole('menuitem', { name: 'Crear alias' }).click();
  const form = dialog(page);
  await form.getByLabel('Alias', { exact: true }).fill('pedidos');
  await form.getByLabel('Destino 1', { exact: true }).fill('no-es-correo');
  await expect(form.getByText('Correo electrónico no válido')).toBeVisible();
  await form.getByLabel('Destino 1', { exact: true }).fill('ana@example.com');
  await form.getByRole('button', { name: 'Añadir destino' }).click();
  await form.getByLabel('Destino 2', { exact: true }).fill('luis@example.com');
  await form.getByRole('button', { name: 'Crear' }).click();
  await toast(page, 'Alias creado');
  const row = page.getByRole('row', { name: new RegExp(`pedidos@${reference}`) });
  await expect(row).toContainText('ana@example.com, luis@example.com');

  await rowAction(page, `pedidos@${reference}`, 'Editar');
  await dialog(page).getByRole('button', { name: 'Quitar destino 2' }).click();
  await dialog(page).getByRole('button', { name: 'Guardar' }).click();
  await toast(page, 'Alias guardado');
  await expect(row).not.toContainText('luis@example.com');

  await page.getByText('Cuentas', { exact: true }).click();
  await expect(row).toHaveCount(0);
  await page.getByText('Todos', { exact: true }).click();
  await expect(row).toBeVisible();

  await page.getByRole('button', { name: 'Datos de configuración' }).click();
  await expect(dialog(page)).toContainText(`imap.${reference}`);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');

  await rowAction(page, `pedidos@${reference}`, 'Eliminar');
  await dialog(page).getByRole('button', { name: 'Eliminar' }).click();
  await toast(page, 'Alias eliminado');
  await expect(row).toHaveCount(0);
});
