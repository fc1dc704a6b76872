import { expect, test } from '@playwright/test';
import { createE2EAccount, signInContext, unique } from '../support/accounts.ts';

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
