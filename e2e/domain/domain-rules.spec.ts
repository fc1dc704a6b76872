import { expect, test } from '@playwright/test';
import { openDomain, regrant } from './helpers.ts';

test('a reader sees the domain in English: read-only checks and crosses, no edit buttons, only whether an auth code is set', async ({
  page,
}) => {
  await openDomain(page, 'r', 'en');
  await expect(page.getByRole('img', { name: 'Modification block: off' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Transfer block: off' })).toBeVisible();
  await expect(page.getByRole('switch')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(Edit|Add)/ })).toHaveCount(0);
  await expect(page.getByTestId('contact-tech').getByText('Technical')).toBeVisible();
  // The auth code is a credential (decision 051): a reader is told it is set, and has no way to show it.
  await expect(page.getByTestId('auth-secret-state')).toHaveText(/^The domain has its Authorisation code \(authcode\) set\./);
  await expect(page.getByRole('button', { name: /^Show Authorisation code/ })).toHaveCount(0);
  await expect(page.getByTestId('auth-secret')).toHaveCount(0);
});

test('a writer in English gets the field errors of the glue dialog in English', async ({ page }) => {
  await openDomain(page, 'w', 'en');
  await page.getByTestId('summary-glue').getByRole('button', { name: 'Add' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('ns_1');
  await dialog.getByRole('textbox', { name: 'IP (IPv4)' }).pressSequentially('1.2.3');
  await dialog.getByRole('textbox', { name: 'IPv6 (optional)' }).fill('zz::1');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Invalid host name')).toBeVisible();
  await expect(dialog.getByText('Invalid IP', { exact: true })).toBeVisible();
  await expect(dialog.getByText('Invalid IPv6')).toBeVisible();
});

test('a dialog whose action was revoked meanwhile closes with "no permission"', async ({ page }) => {
  const account = await openDomain(page, 'w');
  await page.getByTestId('summary-glue').getByRole('button', { name: 'Añadir' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Nombre' }).fill('ns1');
  await dialog.getByRole('textbox', { name: 'IP (IPv4)' }).fill('192.0.2.1');
  await regrant(account, 'w', 'domain_gluerecords=read');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Sin permiso')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('summary-glue').getByRole('button', { name: 'Añadir' })).toHaveCount(0);
});

test('a failed delete shows the error, reloads the list and closes the dialog', async ({ page }) => {
  const DOMAIN = (await openDomain(page, 'w')).domain;
  const glue = page.getByTestId('summary-glue');
  await glue.getByRole('button', { name: 'Añadir' }).click();
  let dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Nombre' }).fill('ns1');
  await dialog.getByRole('textbox', { name: 'IP (IPv4)' }).fill('192.0.2.1');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  // The glue record becomes one of the domain's name servers: the registry refuses its deletion.
  await page.getByTestId('summary-dns').getByRole('button', { name: 'Editar' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByRole('radio', { name: 'Usar servidores DNS personalizados' }).check();
  await dialog.getByRole('textbox', { name: 'Servidor DNS 1' }).fill(`ns1.${DOMAIN}`);
  await dialog.getByRole('textbox', { name: 'Servidor DNS 2' }).fill('ns2.externo-e2e.net');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await glue.getByRole('button', { name: `Eliminar ns1.${DOMAIN}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
  await expect(page.getByText(/registro glue está en uso/)).toBeVisible();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(glue.getByText(`ns1.${DOMAIN} · 192.0.2.1`)).toBeVisible();
});
