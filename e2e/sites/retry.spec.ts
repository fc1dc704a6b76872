import { expect, test } from '@playwright/test';
import { createE2EAccount, signInContext, unique, withE2EStore } from '../support/accounts.ts';

/** Marks the latest apply of a site's host as failed for good, as eight refusals of the web server would. */
const failSiteApply = (itemId: number, siteName: string) =>
  withE2EStore(async (store) => {
    const site = await store
      .selectFrom('site')
      .select('id')
      .where('service_id', '=', itemId)
      .where('name', '=', siteName)
      .executeTakeFirstOrThrow();
    const job = await store
      .selectFrom('job')
      .select('id')
      .where('item_id', '=', itemId)
      .where('kind', '=', 'sites.apply')
      .where('payload', '=', JSON.stringify({ key: `site-${site.id}` }))
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await store
      .updateTable('job')
      .set({ status: 'failed', attempts: 8, last_error: 'nginx -t: configuration test failed' })
      .where('id', '=', job.id)
      .execute();
  });

test('a site whose host failed to apply shows it on its card with a retry that applies it again; a reader sees no button', async ({
  page,
  browser,
}) => {
  const reference = unique('tienda.es');
  const account = await createE2EAccount({
    users: { ana: 'all=write', luis: 'all=read' },
    items: [{ reference, domain: true, service: 'normal' }],
  });
  const id = account.items[reference];
  await signInContext(page.context(), account, 'ana');
  await page.goto(`/admin/${id}/service/subdomain/`);
  await page.getByRole('button', { name: 'Crear sitio' }).click();
  const dialog = page.getByRole('dialog', { name: 'Crear sitio' });
  await dialog.getByLabel('Subdominio').fill('caido');
  await dialog.getByLabel('Carpeta').fill('/caido');
  await dialog.getByRole('button', { name: 'Crear sitio' }).click();
  await expect(dialog).toBeHidden();
  const card = page.getByTestId('site-caido');
  await expect(card).toBeVisible();
  await expect(card.getByTestId('state-pending')).toHaveCount(0);
  await failSiteApply(id, 'caido');
  await page.reload();
  await expect(card.getByTestId('state-failed')).toHaveText('Error al aplicar');

  const reader = await browser.newContext();
  await signInContext(reader, account, 'luis');
  const readerPage = await reader.newPage();
  await readerPage.goto(`/admin/${id}/service/subdomain/`);
  await expect(readerPage.getByTestId('site-caido').getByTestId('state-failed')).toBeVisible();
  await expect(readerPage.getByTestId('state-retry')).toHaveCount(0);

  await card.getByRole('button', { name: `Reintentar el cambio de caido.${reference}` }).click();
  await expect(page.getByText('Se volverá a aplicar el cambio').first()).toBeVisible();
  await expect(card.getByTestId('state-failed')).toHaveCount(0);
  await expect(card.getByTestId('state-retry')).toHaveCount(0);
  // Applied again by the server's worker: the list polls until the site is ready.
  await expect(card.getByTestId('state-pending')).toHaveCount(0);
  await reader.close();
});
