import { expect, test } from '@playwright/test';
import { createE2EAccount, signInContext } from '../support/accounts.ts';
import { pebbleInstalled } from '../support/pebble.ts';

test('switching on the free certificate shows the issuance step by step until it is installed, then its details on the card', async ({
  page,
  context,
}) => {
  test.skip(!pebbleInstalled() && !process.env.CI, 'pebble is not installed (Debian package pebble)');
  const acc = await createE2EAccount({ users: { ana: 'all=write' }, items: [{ reference: 'gratis.es', domain: true, service: 'normal' }] });
  await signInContext(context, acc, 'ana');
  await page.goto(`/admin/${acc.items['gratis.es']}/service/subdomain/`);
  await page.getByRole('button', { name: 'Crear sitio' }).click();
  const create = page.getByRole('dialog', { name: 'Crear sitio' });
  await create.getByLabel('Subdominio').fill('www');
  await create.getByLabel('Carpeta').fill('/www');
  await create.getByRole('button', { name: 'Crear sitio' }).click();
  await expect(create).toBeHidden();

  const card = page.getByTestId('site-www');
  await card.getByRole('button', { name: 'Acciones de www.gratis.es' }).click();
  await page.getByRole('menuitem', { name: 'Editar sitio' }).click();
  const dialog = page.getByRole('dialog', { name: 'Editar sitio' });
  await dialog.getByRole('switch', { name: 'Activar SSL (HTTPS)' }).click();
  await dialog.getByRole('switch', { name: 'Certificado gratuito' }).click();
  // The five steps the server's worker reports as it talks to the ACME server, then the end.
  for (const step of ['Pedido', 'Desafío', 'Validación', 'Emisión', 'Instalación'])
    await expect(dialog.getByText(step, { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByTestId('acme-done')).toHaveText('Certificado gratuito instalado', { timeout: 20_000 });
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(card.getByText('SSL', { exact: true })).toBeVisible();
  const details = card.getByTestId('certificate-details');
  await expect(details.getByText('Gratuito (ACME)')).toBeVisible();
  await expect(details).toContainText('www.gratis.es');
  await expect(details).toContainText('Pebble');
});
