import { expect, test } from '@playwright/test';
import { endSessions, signInContext } from '../support/accounts.ts';
import { fillSignIn, fullAccount, TEST_PASSWORD } from './helpers.ts';

test('an expired session opens the login dialog, and the interrupted call is replayed after signing in', async ({ page, context }) => {
  const account = await fullAccount();
  await signInContext(context, account, 'ana');
  await page.goto('/admin/contact/');
  await page.getByLabel('Correo electrónico').fill('ana@example.com');
  await page.getByLabel('Asunto').fill('Hola');
  await page.getByLabel('Mensaje').fill('Una consulta');
  await page.getByLabel('Acepto la política de privacidad').check();
  await endSessions(account, 'ana');
  const sent = page.waitForResponse((r) => r.url().endsWith('/p247/contactmail/') && r.status() === 200);
  await page.getByRole('button', { name: 'Enviar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sesión caducada' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Ir a la página de acceso' })).toBeVisible();
  const login = await fillSignIn(page, account.realm, 'ana', TEST_PASSWORD);
  await login.click();
  await sent;
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL('/admin/contact/');
  await expect(page.getByLabel('Asunto')).toHaveValue('');
});
