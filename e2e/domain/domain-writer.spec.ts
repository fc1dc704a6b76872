import { expect, test } from '@playwright/test';
import { openDomain } from './helpers.ts';

test('a writer sets custom DNS servers: 2 starting rows, up to 7, extra rows removable, errors under the rows', async ({ page }) => {
  await openDomain(page, 'w');
  await page.getByTestId('summary-dns').getByRole('button', { name: 'Editar' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('radio', { name: 'Usar los servidores DNS del proveedor' })).toBeChecked();
  await expect(dialog.getByText('Los cambios pueden tardar hasta 24 horas en propagarse.')).toBeVisible();
  await dialog.getByRole('radio', { name: 'Usar servidores DNS personalizados' }).check();
  await expect(dialog.getByRole('textbox', { name: /^Servidor DNS/ })).toHaveCount(2);
  await expect(dialog.getByRole('button', { name: /^Quitar/ })).toHaveCount(0);
  const add = dialog.getByRole('button', { name: 'Añadir servidor DNS' });
  for (let i = 0; i < 5; i++) await add.click();
  await expect(add).toBeDisabled();
  await expect(dialog.getByRole('button', { name: /^Quitar/ })).toHaveCount(5);
  for (let n = 7; n > 3; n--) await dialog.getByRole('button', { name: `Quitar el servidor DNS ${n}` }).click();
  await dialog.getByRole('textbox', { name: 'Servidor DNS 1' }).fill('ns1.externo-e2e.net');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByText('Indica al menos 2 servidores DNS')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Servidor DNS 2' }).fill('NS1.externo-e2e.net');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByText('Este servidor DNS está repetido')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Servidor DNS 2' }).fill('ns2.externo-e2e.net');
  await dialog.getByRole('textbox', { name: 'Servidor DNS 3' }).fill('ns3.externo-e2e.net');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  const summary = page.getByTestId('summary-dns');
  await expect(summary.getByText('ns2.externo-e2e.net')).toBeVisible();
  await expect(summary.getByText('ns3.externo-e2e.net')).toBeHidden();
  await summary.getByRole('button', { name: 'Mostrar 1 más' }).click();
  await expect(summary.getByText('ns3.externo-e2e.net')).toBeVisible();
});

test('a writer creates, edits and deletes a glue record with an IP input that accepts only valid addresses', async ({ page }) => {
  const DOMAIN = (await openDomain(page, 'w')).domain;
  const glue = page.getByTestId('summary-glue');
  await glue.getByRole('button', { name: 'Añadir' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Nombre' }).fill('ns1');
  const ip = dialog.getByRole('textbox', { name: 'IP (IPv4)' });
  await ip.pressSequentially('999x1.1.1');
  await expect(ip).toHaveValue('999.1.1.1');
  await dialog.getByRole('textbox', { name: 'IPv6 (opcional)' }).click();
  await expect(dialog.getByText('IP Invalida')).toBeVisible();
  await ip.fill('');
  await ip.pressSequentially('203.0.113.5');
  await expect(ip).toHaveValue('203.0.113.5');
  await dialog.getByRole('textbox', { name: 'IPv6 (opcional)' }).fill('2001:db8::5');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(glue.getByText(`ns1.${DOMAIN} · 203.0.113.5 · 2001:db8::5`)).toBeVisible();

  await glue.getByRole('button', { name: `Editar ns1.${DOMAIN}` }).click();
  await expect(dialog.getByRole('textbox', { name: 'Nombre' })).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'IP (IPv4)' }).fill('198.51.100.7');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(glue.getByText(`ns1.${DOMAIN} · 198.51.100.7 · 2001:db8::5`)).toBeVisible();

  await glue.getByRole('button', { name: `Eliminar ns1.${DOMAIN}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
  await expect(glue.getByText('Ninguno')).toBeVisible();
});

test('a writer adds and deletes a DS record; a wrong digest length is refused under the field', async ({ page }) => {
  await openDomain(page, 'w');
  const section = page.getByTestId('summary-dnssec');
  await section.getByRole('button', { name: 'Añadir' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Key tag' }).fill('12345');
  await dialog.getByRole('combobox', { name: 'Algoritmo' }).click();
  await page.getByRole('option', { name: '13 · ECDSA P-256 SHA-256' }).click();
  await dialog.getByRole('combobox', { name: 'Tipo de digest' }).click();
  await page.getByRole('option', { name: '2 · SHA-256' }).click();
  await dialog.getByRole('textbox', { name: 'Digest' }).fill('abcdef');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByText(/^Digest no válido/)).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Digest' }).fill('ab'.repeat(32));
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(section.getByText('Key tag 12345 · Algoritmo 13 · Tipo de digest 2')).toBeVisible();
  await section.getByRole('button', { name: 'Eliminar 12345' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
  await expect(section.getByText('Ninguno')).toBeVisible();
});

test('a writer toggles the transfer block and copies the auth code on demand', async ({ page }) => {
  await openDomain(page, 'w');
  const transfer = page.getByRole('switch', { name: 'Bloqueo de transferencia' });
  await expect(transfer).not.toBeChecked();
  await transfer.click({ force: true });
  await expect(page.getByText('Bloqueo de transferencia activado')).toBeVisible();
  await expect(transfer).toBeChecked();
  await page.getByRole('button', { name: 'Copiar' }).click();
  await expect(page.getByText('No hay nada que copiar')).toBeVisible();
  await page.getByRole('button', { name: /^Ver Código de autorización/ }).click();
  await expect(page.getByTestId('auth-secret')).toHaveText(/^.{16}$/);
  await page.getByRole('button', { name: 'Copiar' }).click();
  await expect(page.getByText('Copiado')).toBeVisible();
  await expect(page.getByText('Copiado')).toBeHidden({ timeout: 4000 });
});

test('a writer edits the technical contact from a copy of the registrant and applies it to all three', async ({ page }) => {
  await openDomain(page, 'w');
  await page.getByRole('button', { name: 'Editar contacto: Técnico' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: 'Copiar los datos de otro contacto' }).click();
  await page.getByRole('option', { name: 'Titular' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Nombre', exact: true })).toHaveValue('Hostmaster');
  await dialog.getByRole('radio', { name: 'Particular' }).check();
  await dialog.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Pere');
  await dialog.getByRole('textbox', { name: 'Apellidos' }).fill('Vidal Mas');
  await dialog.getByRole('textbox', { name: 'NIF' }).fill('43123456T');
  await dialog.getByRole('textbox', { name: 'Correo electrónico' }).fill('pere');
  await dialog.getByLabel('Ciudad').fill('Inca');
  await expect(page.getByRole('option', { name: 'Inca' })).toBeVisible();
  await dialog.getByRole('radio', { name: 'Contactos administrativo, de facturación y técnico' }).check();
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByText('Correo electrónico no válido')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Correo electrónico' }).fill('pere@example.com');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  for (const role of ['admin', 'billing', 'tech'])
    await expect(page.getByTestId(`contact-${role}`).getByText('Pere Vidal Mas')).toBeVisible();
  await expect(page.getByTestId('contact-registrant').getByText('Pere Vidal Mas')).toHaveCount(0);
});
