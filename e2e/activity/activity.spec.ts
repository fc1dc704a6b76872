import { expect, test } from '@playwright/test';
import { createE2EAccount, signInContext, unique } from '../support/accounts.ts';

test('a change made in the panel shows in Activity, filtered by its item, and the item page links to its history', async ({ page }) => {
  test.setTimeout(60_000);
  const changed = unique('historia-e2e.es');
  const quiet = unique('tranquilo-e2e.es');
  const account = await createE2EAccount({
    users: { w: 'all=write' },
    items: [
      { reference: changed, domain: true, service: 'normal' },
      { reference: quiet, domain: true, service: 'normal' },
    ],
  });
  await signInContext(page.context(), account, 'w');

  // The change: a DNS record created through the zone's dialog.
  await page.goto(`/admin/${account.items[changed]}/service/dns/`);
  await expect(page.getByTestId('dns-row').first()).toBeVisible();
  await page.getByRole('button', { name: 'Acciones de la zona' }).click();
  await page.getByRole('menuitem', { name: 'Crear registro' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: 'Tipo', exact: true }).click();
  await page.getByRole('option', { name: 'A', exact: true }).click();
  await dialog.getByRole('textbox', { name: 'Nombre' }).fill('historial');
  await dialog.getByRole('textbox', { name: 'Valor', exact: true }).fill('203.0.113.44');
  await dialog.getByRole('button', { name: 'Crear', exact: true }).click();
  await expect(dialog).toBeHidden();

  // Activity from the menu, filtered by the item: the entry with who, what and before → after.
  await page.getByRole('link', { name: 'Actividad' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Actividad' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Elemento' }).click();
  await page.getByRole('option', { name: quiet, exact: true }).click();
  await expect(page.getByTestId('no-results')).toBeVisible();
  await page.getByRole('combobox', { name: 'Elemento' }).click();
  await page.getByRole('option', { name: changed, exact: true }).click();
  const entry = page.getByTestId('activity-event').filter({ hasText: 'dns.create' });
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText('historial');
  await expect(entry).toContainText('203.0.113.44');
  await expect(entry).toContainText('Zona DNS');
  await expect(entry.getByRole('link', { name: changed })).toBeVisible();

  // The item page's History link opens Activity already filtered by that item.
  await page.goto(`/admin/${account.items[changed]}/`);
  await page.getByRole('link', { name: 'Historial' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/activity/\\?item=${account.items[changed]}$`));
  await expect(page.getByRole('combobox', { name: 'Elemento' })).toHaveValue(changed);
  await expect(page.getByTestId('activity-event').filter({ hasText: 'dns.create' })).toHaveCount(1);
  await page.goto(`/admin/${account.items[quiet]}/`);
  await page.getByRole('link', { name: 'Historial' }).click();
  await expect(page.getByTestId('no-results')).toBeVisible();
});
