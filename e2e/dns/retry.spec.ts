import { expect, test } from '@playwright/test';
import { signInContext, withE2EStore } from '../support/accounts.ts';
import { openZone } from './helpers.ts';

/** Marks the zone's latest apply as failed for good, as eight refusals of the DNS server would. */
const failZoneApply = (itemId: number) =>
  withE2EStore(async (store) => {
    const job = await store
      .selectFrom('job')
      .select('id')
      .where('item_id', '=', itemId)
      .where('kind', '=', 'dns.apply-zone')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await store
      .updateTable('job')
      .set({ status: 'failed', attempts: 8, last_error: 'PowerDNS: connect ECONNREFUSED' })
      .where('id', '=', job.id)
      .execute();
  });

test("a zone whose apply failed shows it beside the zone's actions with a retry that applies it again; a reader sees no button", async ({
  page,
  browser,
}) => {
  const account = await openZone(page, 'w');
  const itemId = account.items[account.zone];
  await expect(page.getByTestId('state-failed')).toHaveCount(0);
  await failZoneApply(itemId);
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
