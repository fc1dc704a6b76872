import { expect, type Page, test } from '@playwright/test';
import { createE2EAccount, failJob, signInContext, unique, withE2EStore } from '../support/accounts.ts';

/** The id of a service's site, by name. */
const siteId = (itemId: number, name: string) =>
  withE2EStore(async (store) => {
    const site = await store
      .selectFrom('site')
      .select('id')
      .where('service_id', '=', itemId)
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return site.id;
  });

/** A realm with a writer (ana), a reader (luis) and a service with one site, on the writer's sites page. */
async function serviceWithSite(page: Page, name: string) {
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
  await dialog.getByLabel('Subdominio').fill(name);
  await dialog.getByLabel('Carpeta').fill(`/${name}`);
  await dialog.getByRole('button', { name: 'Crear sitio' }).click();
  await expect(dialog).toBeHidden();
  const card = page.getByTestId(`site-${name}`);
  await expect(card).toBeVisible();
  // Applied by the server's worker: the list polls until the site is ready.
  await expect(card.getByTestId('state-pending')).toHaveCount(0, { timeout: 15_000 });
  return { account, reference, id, card, site: await siteId(id, name) };
}

test('a site whose host failed to apply shows it on its card with a retry that applies it again; a reader sees no button', async ({
  page,
  browser,
}) => {
  const { account, reference, id, card, site } = await serviceWithSite(page, 'caido');
  await failJob({ itemId: id, kind: 'sites.apply', payload: { key: `site-${site}` } }, 'nginx -t: configuration test failed');
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
  await expect(card.getByTestId('state-pending')).toHaveCount(0, { timeout: 15_000 });
  await reader.close();
});

test('a removed site whose host the web server kept shows the failed removal above the list, with a retry that takes it off', async ({
  page,
}) => {
  const { reference, id, card, site } = await serviceWithSite(page, 'borrada');
  const removed = page.getByTestId('sites-removed');
  await card.getByRole('button', { name: `Acciones de borrada.${reference}` }).click();
  await page.getByRole('menuitem', { name: 'Eliminar sitio' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirmar' }).click();
  await expect(card).toHaveCount(0);
  await expect(removed).toHaveCount(0);
  await failJob({ itemId: id, kind: 'sites.apply', payload: { key: `site-${site}` } }, 'nginx -t: configuration test failed');
  await page.reload();
  await expect(removed).toContainText('Sitios eliminados');
  await expect(removed.getByTestId('state-failed')).toHaveText('Error al aplicar');
  await removed.getByRole('button', { name: 'Reintentar el cambio de los sitios eliminados' }).click();
  await expect(page.getByText('Se volverá a aplicar el cambio').first()).toBeVisible();
  // Taken off by the server's worker: the list polls until nothing is left to show.
  await expect(removed).toHaveCount(0, { timeout: 15_000 });
});
