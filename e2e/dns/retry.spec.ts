import { expect, test } from '@playwright/test';
import { failJob, signInContext } from '../support/accounts.ts';
import { openZone } from './helpers.ts';

test("a zone whose apply failed shows it beside the zone's actions with a retry that applies it again; a reader sees no button", async ({
  page,
  browser,
}) => {
  const account = await openZone(page, 'w');
  const itemId = account.items[account.zone];
  await expect(page.getByTestId('state-failed')).toHaveCount(0);
  await failJob({ itemId, kind: 'dns.apply-zone' }, 'PowerDNS: connect ECONNREFUSED');
  await page.reload();
  await expect(page.getByTestId('state-failed')).toHaveText('Error al aplicar');

  const reader = await browser.newContext();
  await signInContext(reader, account, 'r');
  const readerPage = await reader.newPage();
  await readerPage.goto(`/admin/${itemId}/service/dns/`);
  await expect(readerPage.getByTestId('state-failed')).toBeVisible();
  await expect(readerPage.getByTestId('state-retry')).toHaveCount(0);

  await page.getByRole('button', { name: `Reintentar el cambio de la zona ${account.zone}` }).click();
  await expect(page.getByText('Se volverá a aplicar el cambio').first()).toBeVisible();
  await expect(page.getByTestId('state-failed')).toHaveCount(0);
  await expect(page.getByTestId('state-retry')).toHaveCount(0);
  // Applied again by the server's worker: the page polls until the zone is ready.
  await expect(page.getByTestId('state-pending')).toHaveCount(0);
  await reader.close();
});
