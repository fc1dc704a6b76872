import { LIMITS } from '@atalaya/contract';
import { expect, test } from '@playwright/test';
import { signInContext } from '../support/accounts.ts';
import { fullAccount, TEST_PASSWORD } from './helpers.ts';

test('the language switches es → en → ca on the sign-in page and is kept in the _lang cookie', async ({ page, context }) => {
  await page.goto('/login/');
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Language' }).selectOption('ca');
  await expect(page.getByRole('button', { name: 'Entra' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ca');
  const cookie = (await context.cookies()).find((c) => c.name === '_lang');
  expect(cookie?.value).toBe('ca');
  await page.reload();
  await expect(page.getByText('Has oblidat la contrasenya?')).toBeVisible();
});

test("a signed-in user's language is kept on the server: a new browser opens in it", async ({ page, context, browser }) => {
  const account = await fullAccount();
  await signInContext(context, account, 'ana');
  await page.goto('/admin/preferences/');
  const saved = page.waitForResponse((r) => r.url().includes('/user/preferences/'));
  await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
  expect((await (await saved).json()).data.language).toBe('en');
  // Another browser: no _lang cookie, only the user's preference on the server.
  const other = await browser.newContext();
  await signInContext(other, account, 'ana');
  const fresh = await other.newPage();
  await fresh.goto('/admin/');
  await expect(fresh.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await other.close();
});

test('theme and colour apply at once and are remembered', async ({ page, context }) => {
  const account = await fullAccount();
  await signInContext(context, account, 'ana');
  await page.goto('/admin/preferences/');
  await page.getByRole('combobox', { name: 'Tema' }).selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
  const primary = () => page.evaluate(() => getComputedStyle(document.body).getPropertyValue('--mantine-primary-color-filled').trim());
  const before = await primary();
  const palette = page.getByRole('radiogroup', { name: 'Color' });
  await expect(palette.getByRole('radio')).toHaveCount(22);
  await palette.getByRole('radio', { name: 'teal' }).click();
  await expect(palette.getByRole('radio', { name: 'teal' })).toHaveAttribute('aria-checked', 'true');
  await expect.poll(primary).not.toBe(before);
  const teal = await primary();
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(palette.getByRole('radio', { name: 'teal' })).toHaveAttribute('aria-checked', 'true');
  expect(await primary()).toBe(teal);
});

test('changing the password: a wrong current one is refused under its field, the right one succeeds', async ({ page, context }) => {
  const account = await fullAccount();
  await signInContext(context, account, 'ana');
  await page.goto('/admin/preferences/');
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cambiar contraseña' });
  await expect(dialog.getByText(/se revocarán todos tus tokens de API/)).toBeVisible();
  await dialog.getByLabel('Contraseña actual').fill('not-my-password');
  await dialog.getByLabel('Nueva contraseña').fill('una-clave-bastante-larga');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByLabel('Contraseña actual')).toHaveAttribute('data-invalid', 'true');
  await expect(dialog.locator('.mantine-InputWrapper-error')).toHaveCount(1);
  await dialog.getByLabel('Contraseña actual').fill(TEST_PASSWORD);
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.mantine-Notification-root')).toHaveText(
    'Contraseña cambiada. Se han cerrado las demás sesiones y se han revocado tus tokens de API',
  );
  // Still signed in, on the fresh session the change handed out.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Cambiar contraseña' })).toBeVisible();
});

test('Escape closes a dialog only on a second press within 200 ms', async ({ page, context }) => {
  const account = await fullAccount();
  await signInContext(context, account, 'ana');
  await page.goto('/admin/preferences/');
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cambiar contraseña' });
  // A first press, then a second once the double-press window has passed, as the page measures it.
  await page.evaluate(() => {
    addEventListener('keydown', (event) => Object.assign(window, { lastKeyAt: event.timeStamp }), { capture: true });
  });
  await page.keyboard.press('Escape');
  await page.waitForFunction(
    (windowMs) => performance.now() - (window as unknown as { lastKeyAt: number }).lastKeyAt > windowMs,
    LIMITS.escapeWindowMs,
  );
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});
