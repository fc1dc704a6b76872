import { expect, type Page, test } from '@playwright/test';
import { signInContext } from '../support/accounts.ts';
import { fullAccount, horizontalOverflow, seriousViolations } from './helpers.ts';

/** The page's fade-in (400 ms delay, 200 ms) has ended: axe would read its half-transparent colours. */
const pageFadeDone = (page: Page) => expect(page.locator('.page-fade')).toHaveCSS('opacity', '1');

test('axe finds no serious or critical violation on sign-in, dashboard, lists and preferences', async ({ page, context }) => {
  await page.goto('/login/');
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
  expect(await seriousViolations(page), '/login/').toEqual([]);
  const account = await fullAccount();
  await signInContext(context, account, 'ana');
  for (const [path, heading] of [
    ['/admin/', 'Panel'],
    ['/admin/domain/', 'Dominios'],
    ['/admin/preferences/', 'Preferencias'],
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await pageFadeDone(page);
    expect(await seriousViolations(page), path).toEqual([]);
  }
});

test('on a 360 px phone nothing overflows and the menu folds behind a burger', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await page.goto('/login/');
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  const account = await fullAccount();
  await signInContext(context, account, 'ana');
  for (const path of ['/admin/', '/admin/domain/', '/admin/preferences/', `/admin/${account.items[account.reference]}/domain/`]) {
    await page.goto(path);
    await pageFadeDone(page);
    expect(await horizontalOverflow(page), path).toBeLessThanOrEqual(0);
  }
  const menu = page.getByRole('navigation', { name: 'menu' });
  await expect(menu).not.toBeInViewport();
  await page.getByRole('button', { name: 'Mostrar u ocultar el menú' }).click();
  await expect(menu.getByRole('link', { name: 'Preferencias' })).toBeInViewport();
  await menu.getByRole('link', { name: 'Preferencias' }).click();
  await expect(page).toHaveURL('/admin/preferences/');
  await context.close();
});
