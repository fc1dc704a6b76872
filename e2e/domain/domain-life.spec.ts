import { expect, test } from '@playwright/test';
import { withE2EStore } from '../support/accounts.ts';
import { openDomain } from './helpers.ts';

test('a writer renews for two years and sees the new expiry date before and after sending', async ({ page }) => {
  await openDomain(page, 'w');
  const life = page.getByTestId('domain-life');
  await expect(life.getByTestId('expiry-state')).toHaveText('Activo');
  const before = await life.getByTestId('expiry-text').textContent();
  await life.getByRole('button', { name: 'Renovar' }).click();
  const dialog = page.getByRole('dialog');
  const oneYear = await dialog.getByTestId('renew-new-date').textContent();
  await dialog.getByRole('combobox', { name: 'Años' }).click();
  await page.getByRole('option', { name: '2', exact: true }).click();
  const shown = dialog.getByTestId('renew-new-date');
  await expect(shown).not.toHaveText(oneYear ?? '');
  const newDate = ((await shown.textContent()) ?? '').replace('Nueva fecha de caducidad: ', '');
  await dialog.getByRole('button', { name: 'Renovar' }).click();
  await expect(page.getByText('Dominio renovado')).toBeVisible();
  await expect(life.getByTestId('expiry-text')).toHaveText(`Activo hasta el ${newDate}`);
  expect(before).not.toBe(`Activo hasta el ${newDate}`);
});

test('a writer restores a domain in its redemption period and sees it active again', async ({ page }) => {
  const account = await openDomain(page, 'w');
  // The domain lapsed 50 days ago: past its 45-day grace, the registry deleted it into redemption.
  const lapsed = Math.floor(Date.now() / 1000) - 50 * 86_400;
  await withE2EStore((store) =>
    store
      .updateTable('domain')
      .set({ expire_at: lapsed, updated_at: lapsed })
      .where('item_id', '=', account.items[account.domain])
      .execute(),
  );
  await page.reload();
  const life = page.getByTestId('domain-life');
  await expect(life.getByTestId('expiry-state')).toHaveText('En rescate', { timeout: 15_000 });
  await expect(life.getByRole('button', { name: 'Renovar' })).toHaveCount(0);
  await life.getByRole('button', { name: 'Restaurar' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Restaurar' }).click();
  await expect(page.getByText('Dominio restaurado')).toBeVisible();
  await expect(life.getByTestId('expiry-state')).toHaveText('Activo');
  await expect(life.getByRole('button', { name: 'Restaurar' })).toHaveCount(0);
});
