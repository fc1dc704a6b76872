import { expect, type Page, test } from '@playwright/test';
import { signInContext } from '../support/accounts.ts';
import { fullAccount } from './helpers.ts';

/** A mark on the page's window: it survives navigations within the panel and is gone after a reload. */
const mark = (page: Page) => page.evaluate(() => Object.assign(window, { atalayaMark: true }));
const stillMarked = (page: Page) => page.evaluate(() => 'atalayaMark' in window);
/** A link of the header's menu: Panel (the dashboard alone) or Dominios (the list and the pages below it). */
const topMenu = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name, exact: true });

test('the panel’s links change the page without reloading it, and Back and Forward return to each page', async ({ page, context }) => {
  const account = await fullAccount();
  await signInContext(context, account, 'ana');
  await page.goto('/admin/');
  await expect(page.getByRole('heading', { name: 'Panel', level: 1 })).toBeVisible();
  await mark(page);

  await expect(topMenu(page, 'Panel')).toHaveAttribute('aria-current', 'page');
  await topMenu(page, 'Dominios').click();
  await expect(page).toHaveURL('/admin/domain/');
  await expect(topMenu(page, 'Dominios')).toHaveAttribute('aria-current', 'page');
  await expect(topMenu(page, 'Panel')).not.toHaveAttribute('aria-current');
  await page.getByRole('link', { name: account.reference }).click();
  const item = `/admin/${account.items[account.reference]}/domain/`;
  await expect(page).toHaveURL(item);
  await expect(page.getByRole('heading', { name: account.reference, level: 1 })).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL('/admin/domain/');
  await expect(page.getByRole('link', { name: account.reference })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL('/admin/');
  await expect(page.getByRole('heading', { name: 'Panel', level: 1 })).toBeVisible();
  await expect(topMenu(page, 'Dominios')).not.toHaveAttribute('aria-current');
  await page.goForward();
  await expect(page).toHaveURL('/admin/domain/');
  await page.goForward();
  await expect(page.getByRole('heading', { name: account.reference, level: 1 })).toBeVisible();
  expect(await stillMarked(page)).toBe(true);
});

test('a link clicked with Ctrl opens in a new tab and leaves the current page where it was', async ({ page, context }) => {
  await signInContext(context, await fullAccount(), 'ana');
  await page.goto('/admin/');
  await expect(page.getByRole('heading', { name: 'Panel', level: 1 })).toBeVisible();
  const opened = context.waitForEvent('page');
  await page
    .getByRole('banner')
    .getByRole('link', { name: 'Dominios' })
    .click({ modifiers: ['Control'] });
  const tab = await opened;
  await tab.waitForLoadState();
  expect(new URL(tab.url()).pathname).toBe('/admin/domain/');
  await expect(page).toHaveURL('/admin/');
});

test('a screen whose code cannot be fetched is the 404 view inside the item’s frame, and the next visit fetches it again', async ({
  page,
  context,
}) => {
  const account = await fullAccount();
  await signInContext(context, account, 'ana');
  await page.route('**/assets/DomainPage-*.js', (route) => route.abort());
  await page.goto('/admin/domain/');
  await mark(page);
  await page.getByRole('link', { name: account.reference }).click();
  await expect(page.getByTestId('not-found')).toContainText('Error 404');
  await expect(page.getByRole('heading', { name: account.reference, level: 1 })).toBeVisible();

  await page.unroute('**/assets/DomainPage-*.js');
  await topMenu(page, 'Dominios').click();
  await expect(page).toHaveURL('/admin/domain/');
  await page.getByRole('link', { name: account.reference }).click();
  await expect(page.getByRole('heading', { name: 'Resumen' })).toBeVisible();
  await expect(page.getByTestId('not-found')).toHaveCount(0);
  expect(await stillMarked(page)).toBe(true);
});

test('while a screen’s code is on its way the old screen stays, and a later click wins over the waiting one', async ({ page, context }) => {
  const account = await fullAccount();
  await signInContext(context, account, 'ana');
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/DomainPage-*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/admin/domain/');
  await page.getByRole('link', { name: account.reference }).click();
  // The list stays on screen, not a blank page, while the domain page's code is held back.
  await page.waitForTimeout(300);
  await expect(page.getByRole('link', { name: account.reference })).toBeVisible();
  await topMenu(page, 'Panel').click();
  await expect(page.getByRole('heading', { name: 'Panel', level: 1 })).toBeVisible();
  release();
  await page.waitForResponse('**/assets/DomainPage-*.js');
  await page.waitForTimeout(300);
  await expect(page).toHaveURL('/admin/');
  await expect(page.getByRole('heading', { name: 'Panel', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: account.reference, level: 1 })).toHaveCount(0);
});

test('an item’s History link opens the Activity page filtered by the address’s query, and Back returns to the item', async ({
  page,
  context,
}) => {
  const account = await fullAccount();
  await signInContext(context, account, 'ana');
  const id = account.items[account.reference];
  await page.goto(`/admin/${id}/domain/`);
  await page.getByRole('link', { name: 'Historial' }).click();
  await expect(page).toHaveURL(`/admin/activity/?item=${id}`);
  await mark(page);
  await page.goBack();
  await expect(page).toHaveURL(`/admin/${id}/domain/`);
  expect(await stillMarked(page)).toBe(true);
});
