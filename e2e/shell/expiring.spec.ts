import { expect, test } from '@playwright/test';
import { createE2EAccount, signInContext, unique } from '../support/accounts.ts';
import { wcagViolations } from './helpers.ts';

const DAY = 86_400;
const inDays = (days: number) => Math.floor(Date.now() / 1000) + days * DAY;

test('the dashboard lists what expires soon that the user may see, in days, and leaves out what expires later or lies beyond a grant', async ({
  page,
  context,
}) => {
  const soon = unique('pronto.es');
  const service = unique('hosting.es');
  const later = unique('tranquilo.es');
  const account = await createE2EAccount({
    users: { ana: 'all=write', eva: 'all=write,service=disabled' },
    items: [
      { reference: soon, domain: true, expireAt: inDays(5) },
      { reference: service, service: 'normal', expireAt: inDays(20) },
      { reference: later, domain: true, expireAt: inDays(200) },
    ],
  });
  await signInContext(context, account, 'ana');
  await page.goto('/admin/');
  const card = page.getByTestId('expiring-soon');
  await expect(card.getByRole('heading', { name: 'Caduca pronto' })).toBeVisible();
  await expect(card.getByRole('row').filter({ hasText: soon })).toContainText(/Dominio.*en [45] días/);
  await expect(card.getByRole('row').filter({ hasText: service })).toContainText(/Servicio.*en (19|20) días/);
  await expect(card.getByRole('row').filter({ hasText: later })).toHaveCount(0);

  // A user without the service area does not learn about the service's expiry.
  await context.clearCookies();
  await signInContext(context, account, 'eva');
  await page.goto('/admin/');
  await expect(card.getByRole('row').filter({ hasText: soon })).toBeVisible();
  await expect(card.getByRole('row').filter({ hasText: service })).toHaveCount(0);
});

for (const theme of ['light', 'dark'] as const) {
  test(`in the ${theme} theme, the expiring list with expired and expiring rows has no WCAG 2.1 AA violation`, async ({
    page,
    context,
  }) => {
    const expired = unique('caducado.es');
    const urgent = unique('urgente.es');
    const later = unique('mes.es');
    const account = await createE2EAccount({
      users: { ana: 'all=write' },
      items: [
        { reference: expired, domain: true, expireAt: inDays(-5) },
        { reference: urgent, service: 'normal', expireAt: inDays(3) },
        { reference: later, domain: true, expireAt: inDays(20) },
      ],
    });
    await context.addInitScript((value) => localStorage.setItem('theme', value), theme);
    await signInContext(context, account, 'ana');
    await page.goto('/admin/');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
    const card = page.getByTestId('expiring-soon');
    // The two red texts (expired, within a week) and an ordinary one are all on screen.
    await expect(card.getByRole('row').filter({ hasText: expired })).toContainText('Caducado');
    await expect(card.getByRole('row').filter({ hasText: urgent })).toContainText(/en [23] días/);
    await expect(card.getByRole('row').filter({ hasText: later })).toContainText(/en (19|20) días/);
    await expect(page.locator('.page-fade')).toHaveCSS('opacity', '1');
    expect(await wcagViolations(page)).toEqual([]);
  });
}
