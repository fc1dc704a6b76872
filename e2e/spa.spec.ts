import { expect, test } from '@playwright/test';

test('the SPA loads at / and shows the company from the server config', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Atalaya' })).toBeVisible();
});

test('a deep link such as /admin/domain/ returns the SPA, not a 404', async ({ page }) => {
  const response = await page.goto('/admin/domain/');
  expect(response?.status()).toBe(200);
  await expect(page.locator('#root')).not.toBeEmpty();
});
