import { expect, test } from '@playwright/test';
import { createE2EAccount, signInContext, unique } from '../support/accounts.ts';
import { E2E_COMPANY } from '../support/env.ts';

// Names of this run's own (see unique): dominio01-<tag>.es … dominio25-<tag>.es.
const tag = unique('x').slice(2);
const many = Array.from({ length: 25 }, (_, i) => ({ reference: `dominio${String(i + 1).padStart(2, '0')}-${tag}.es`, domain: true }));

test('the domain list filters and paginates 25 items by 10, with a manage button per row', async ({ page, context }) => {
  const account = await createE2EAccount({
    users: { ana: 'all=write' },
    items: [...many, { reference: unique('solo-correo.es'), mail: true }],
  });
  await signInContext(context, account, 'ana');
  await page.goto('/admin/domain/');
  await expect(page).toHaveTitle(`Dominios / ${E2E_COMPANY}`);
  const rows = page.getByRole('table', { name: 'Dominios' }).locator('tbody tr');
  await expect(rows).toHaveCount(10);
  await expect(rows.first()).toContainText(`dominio01-${tag}.es`);
  await page.getByRole('button', { name: '3' }).click();
  await expect(rows).toHaveCount(5);
  await expect(rows.first()).toContainText(`dominio21-${tag}.es`);
  await page.getByRole('searchbox', { name: 'Filtrar Dominios' }).fill('dominio1');
  await expect(rows).toHaveCount(10);
  await expect(page.getByRole('navigation').getByRole('button', { name: '2' })).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Filtrar Dominios' }).fill('dominio07');
  await expect(rows).toHaveCount(1);
  await page.getByRole('link', { name: `Gestionar dominio07-${tag}.es` }).click();
  await expect(page).toHaveURL(`/admin/${account.items[`dominio07-${tag}.es`]}/domain/`);
  await page.goto('/admin/domain/');
  await page.getByRole('searchbox', { name: 'Filtrar Dominios' }).fill('nada-de-esto');
  await expect(page.getByTestId('no-results')).toHaveText('No hay resultados');
  // The mail-only item is in the mail list, not in the domain list; there are no services at all.
  await page.goto('/admin/mail/');
  await expect(page.getByRole('table', { name: 'Correo' }).locator('tbody tr')).toHaveCount(1);
  await expect(page.getByRole('navigation', { name: 'menu' }).getByRole('link', { name: 'Servicios' })).toHaveCount(0);
});

test('a read-only user sees the item but no write controls, and a disabled area is a 404', async ({ page, context }) => {
  const account = await createE2EAccount({
    users: { luis: 'all=read,servicemail=disabled,servicemail_accounts=disabled,servicemail_alias=disabled' },
    items: [{ reference: `lectura-${tag}.es`, domain: true, service: 'normal', mail: true }],
  });
  const id = account.items[`lectura-${tag}.es`];
  await signInContext(context, account, 'luis');
  await page.goto(`/admin/${id}/`);
  await expect(page).toHaveURL(`/admin/${id}/domain/`);
  const menu = page.getByRole('navigation', { name: 'menu' });
  await expect(menu.getByRole('link', { name: 'Dominio', exact: true })).toBeVisible();
  await expect(menu.locator(`a[href="/admin/${id}/mail/"]`)).toHaveCount(0);
  const main = page.locator('main');
  await expect(main.getByRole('button', { name: /crear|editar|eliminar|guardar|cambiar|añadir/i })).toHaveCount(0);
  await expect(main.getByRole('switch')).toHaveCount(0);
  await page.goto(`/admin/${id}/mail/`);
  await expect(page.getByText('Error 404: ¡Página no encontrada!')).toBeVisible();
});
