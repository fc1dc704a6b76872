import { expect, test } from '@playwright/test';
import { signInContext } from '../support/accounts.ts';
import { fullAccount } from './helpers.ts';

const toasts = '.mantine-Notification-root';

test('a ResizeObserver loop error is ignored, any other uncaught error toasts the translated generic text', async ({ page, context }) => {
  await signInContext(context, await fullAccount(), 'ana');
  await page.goto('/admin/');
  await expect(page.getByRole('heading', { name: 'Panel', level: 1 })).toBeVisible();
  await page.evaluate(() => {
    const message = 'ResizeObserver loop completed with undelivered notifications.';
    window.dispatchEvent(new ErrorEvent('error', { message, error: new Error(message), cancelable: true }));
  });
  await page.waitForTimeout(300);
  await expect(page.locator(toasts)).toHaveCount(0);
  await page.evaluate(() => {
    window.dispatchEvent(new ErrorEvent('error', { message: 'boom', error: new Error('boom'), cancelable: true }));
  });
  await expect(page.locator(toasts)).toHaveText('Error');
});

test('a failed load toasts its translated text; the server’s system.debug lines reach the browser console', async ({ page, context }) => {
  const account = await fullAccount();
  await signInContext(context, account, 'ana');
  const logged: string[] = [];
  page.on('console', (message) => logged.push(message.text()));
  await page.route('**/p247/legal/privacypolicy/**', async (route) => {
    const response = await route.fetch();
    const answer = await response.json();
    answer.system.debug = ['query took 3 ms'];
    await route.fulfill({ response, json: answer });
  });
  await page.goto('/admin/contact/');
  await page.getByRole('button', { name: 'Leer' }).click();
  await expect.poll(() => logged.some((line) => line.includes('query took 3 ms'))).toBe(true);
  await page.keyboard.press('Escape');

  await page.route(`**/p247/domain/${account.items[account.reference]}/gluerecord/list/**`, (route) =>
    route.fulfill({ status: 503, contentType: 'text/html', body: '<h1>Service Unavailable</h1>' }),
  );
  await page.goto(`/admin/${account.items[account.reference]}/domain/`);
  await expect(page.getByRole('heading', { name: 'Resumen' })).toBeVisible();
  await expect(page.locator(toasts).first()).toHaveText('Error interno');
});
