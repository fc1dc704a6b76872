import { expect, test } from '@playwright/test';
import { E2E_COMPANY } from './support/env.ts';

test('the SPA loads at / and shows the company from the server config', async ({ page }) => {
  await page.goto('/');
  // The configured name, not the default "Atalaya", on the sign-in page, its title and footer.
  await expect(page.getByRole('heading', { name: E2E_COMPANY, exact: true })).toBeVisible();
  await expect(page).toHaveTitle(`${E2E_COMPANY} / Login`);
  await expect(page.getByText(`© ${new Date().getFullYear()} ${E2E_COMPANY}`)).toBeVisible();
  await expect(page.getByText('Atalaya')).toHaveCount(0);
});

test('a deep link such as /admin/domain/ returns the SPA, not a 404', async ({ page }) => {
  const response = await page.goto('/admin/domain/');
  expect(response?.status()).toBe(200);
  await expect(page.locator('#root')).not.toBeEmpty();
});

test('a missing asset answers 404, not the SPA in its place', async ({ request }) => {
  const asset = await request.get('/assets/chunk-from-an-older-build.js');
  expect(asset.status()).toBe(404);
  expect(asset.headers()['content-type']).not.toContain('text/html');
});

test('the built assets are served pre-compressed with brotli and cached for good', async ({ request }) => {
  const html = await (await request.get('/login/')).text();
  const script = html.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
  expect(script).toBeDefined();
  const asset = await request.get(script!, { headers: { 'accept-encoding': 'br, gzip' } });
  expect(asset.status()).toBe(200);
  expect(asset.headers()['content-encoding']).toBe('br');
  expect(asset.headers()['cache-control']).toContain('immutable');
});
