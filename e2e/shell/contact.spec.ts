import { expect, test } from '@playwright/test';
import { signInContext } from '../support/accounts.ts';
import { E2E_COMPANY } from '../support/env.ts';
import { fullAccount } from './helpers.ts';

test('the contact form sends only once privacy is accepted, then clears itself', async ({ page, context }) => {
  const account = await fullAccount();
  await signInContext(context, account, 'ana');
  await page.goto('/admin/contact/');
  await expect(page).toHaveTitle(`Contacto / ${E2E_COMPANY}`);
  const send = page.getByRole('button', { name: 'Enviar' });
  await page.getByLabel('Correo electrónico').fill('ana@example.com');
  await page.getByLabel('Asunto').fill('Consulta');
  await page.getByLabel('Mensaje').fill('¿Podéis ampliar mi plan?');
  await expect(send).toBeDisabled();
  await page.getByRole('button', { name: 'Leer' }).click();
  const policy = page.getByRole('dialog');
  await expect(policy).toBeVisible();
  await policy.getByRole('button').first().click();
  await page.getByLabel('Acepto la política de privacidad').check();
  await expect(send).toBeEnabled();
  await send.click();
  await expect(page.locator('.mantine-Notification-root')).toHaveText('Mensaje enviado. Te responderemos lo antes posible');
  await expect(page.getByLabel('Mensaje')).toHaveValue('');
  await expect(send).toBeDisabled();
});
