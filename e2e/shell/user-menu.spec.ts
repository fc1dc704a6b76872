import { expect, test } from '@playwright/test';
import { signInContext } from '../support/accounts.ts';
import { fullAccount } from './helpers.ts';

// The user menu's code loads on first use and replaces a stand-in button (decision 011): the
// keyboard must not notice, whether the code arrives before the key press or after it.
test('the user menu opens from the keyboard, before and after its code has arrived', async ({ page, context }) => {
  const account = await fullAccount();
  await signInContext(context, account, 'ana');
  await page.goto('/admin/');
  const button = page.getByRole('button', { name: /Menú de usuario/ });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Preferencias' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);

  // A fresh page, and time for the code to arrive after the focus: the focus moves to the real button.
  await page.goto('/admin/');
  await button.focus();
  // The menu's own button carries the id its dropdown points to; the stand-in has none.
  await expect(button).toHaveAttribute('id', /.+/);
  await expect(button).toBeFocused();
  await page.keyboard.press('Space');
  await page.getByRole('menuitem', { name: 'Preferencias' }).click();
  await expect(page).toHaveURL('/admin/preferences/');
});
