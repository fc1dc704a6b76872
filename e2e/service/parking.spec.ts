import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { createE2EAccount, signInContext } from '../support/accounts.ts';
import { E2E_PORT } from '../support/env.ts';
import { dialog, toast } from './helpers.ts';

async function parkingAccount() {
  const reference = `park${randomBytes(3).toString('hex')}.test`;
  const account = await createE2EAccount({
    users: { admin: 'all=write', viewer: 'all=read' },
    items: [{ reference, domain: true, service: 'parking' }],
  });
  return { account, reference, id: account.items[reference] };
}

test('a parking service lists the redirections of its domain; a writer adds and deletes one, a reader only sees it', async ({
  page,
  context,
  browser,
}) => {
  const { account, reference, id } = await parkingAccount();
  await signInContext(context, account, 'admin');
  await page.goto(`/admin/${id}/service/`);
  await expect(page.getByRole('heading', { name: 'Aparcamiento' })).toBeVisible();
  await expect(page.getByText('Este dominio aún no tiene redirecciones')).toBeVisible();

  await page.getByTestId('parking-redirection-create').click();
  await dialog(page).getByLabel('URL de destino').fill('ftp://nuevo.example.org/');
  await dialog(page).getByRole('button', { name: 'Crear redirección' }).click();
  await expect(dialog(page).getByText('URL no válida (http o https)')).toBeVisible();
  await dialog(page).getByLabel('URL de destino').fill('https://nuevo.example.org/');
  await dialog(page).getByRole('button', { name: 'Crear redirección' }).click();
  await toast(page, 'Redirección creada');
  const table = page.getByRole('table', { name: `Redirecciones de ${reference}` });
  await expect(table.getByRole('cell', { name: 'https://nuevo.example.org/', exact: true })).toBeVisible();

  const reader = await browser.newContext({ baseURL: `http://127.0.0.1:${E2E_PORT}` });
  await signInContext(reader, account, 'viewer');
  const readerPage = await reader.newPage();
  await readerPage.goto(`/admin/${id}/service/`);
  await expect(readerPage.getByRole('cell', { name: 'https://nuevo.example.org/', exact: true })).toBeVisible();
  await expect(readerPage.getByTestId('parking-redirection-create')).toHaveCount(0);
  await expect(readerPage.getByRole('button', { name: /Acciones de la redirección/ })).toHaveCount(0);
  await reader.close();

  await table.getByRole('button', { name: /^Acciones de la redirección / }).click();
  await page.getByRole('menuitem', { name: 'Eliminar redirección' }).click();
  await dialog(page).getByRole('button', { name: 'Confirmar' }).click();
  await expect(page.getByText('Este dominio aún no tiene redirecciones')).toBeVisible();
});
