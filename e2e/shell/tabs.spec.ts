import { expect, test } from '@playwright/test';
import { signInContext } from '../support/accounts.ts';
import { fullAccount } from './helpers.ts';

test('two tabs stay in step: theme live, language and sign-out by reloading', async ({ context }) => {
  const account = await fullAccount();
  await signInContext(context, account, 'ana');
  const first = await context.newPage();
  const second = await context.newPage();
  await first.goto('/admin/preferences/');
  await second.goto('/admin/');
  await first.getByRole('combobox', { name: 'Tema' }).selectOption('dark');
  await expect(second.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await first.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
  await expect(second.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await first.getByRole('button', { name: /User menu/ }).click();
  await first.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(first).toHaveURL('/login/');
  await expect(second).toHaveURL('/login/');
});
