import { expect, test } from '@playwright/test';
import { signInContext } from '../support/accounts.ts';
import { fullAccount } from './helpers.ts';

test('an unknown path shows the 404 page, plain when signed out', async ({ page }) => {
  await page.goto('/no/such/page/');
  await expect(page.getByText('Error 404: ¡Página no encontrada!')).toBeVisible();
  await expect(page.locator('[data-state="signed-out"]')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Dominios' })).toBeVisible();
  await page.getByRole('link', { name: 'Volver al panel' }).click();
  await expect(page).toHaveURL('/login/');
});

test('signed in: the 404 page is styled for the user, and a foreign item is a 404 inside the panel', async ({ page, context }) => {
  const account = await fullAccount();
  await signInContext(context, account, 'ana');
  await page.goto('/nothing-here/');
  await expect(page.locator('[data-state="signed-in"]')).toBeVisible();
  await page.getByRole('link', { name: 'Volver al panel' }).click();
  await expect(page).toHaveURL('/admin/');
  await page.goto('/admin/999999/');
  await expect(page.getByTestId('not-found')).toContainText('Error 404');
  await expect(page.getByRole('banner')).toBeVisible();
});
