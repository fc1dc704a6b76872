import { expect, test } from '@playwright/test';
import { admin, createE2EAccount, signInContext, unique } from '../support/accounts.ts';

test('a permission granted with the admin CLI reaches the open page: the menu reloads without a page load', async ({ page, context }) => {
  const account = await createE2EAccount({ users: { ana: 'all=write' }, items: [{ reference: unique('primero.es'), domain: true }] });
  const added = unique('correo-nuevo.es');
  await signInContext(context, account, 'ana');
  await page.goto('/admin/');
  const menu = page.getByRole('navigation', { name: 'menu' });
  await expect(menu.getByRole('link', { name: 'Dominios' })).toBeVisible();
  await expect(menu.locator('a[href="/admin/mail/"]')).toHaveCount(0);
  await page.evaluate(() => {
    (window as unknown as { stillTheSamePage: boolean }).stillTheSamePage = true;
  });

  admin('item-create', account.realm, added, '--mail');
  admin('grant', account.realm, 'ana', added, 'all=write');

  await expect(menu.locator('a[href="/admin/mail/"]')).toBeVisible({ timeout: 10_000 });
  expect(await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);
});
