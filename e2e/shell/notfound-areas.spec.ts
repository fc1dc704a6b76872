import { expect, type Page, test } from '@playwright/test';
import { createE2EAccount, signInContext } from '../support/accounts.ts';

/** The signed-in 404 view inside the item's frame: the banner stays, the page is the not-found card. */
async function expectNotFound(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByTestId('not-found'), path).toContainText('Error 404');
  await expect(page.getByRole('banner')).toBeVisible();
}

test('domain: an item without a domain shows the 404 view at its domain page', async ({ page, context }) => {
  const account = await createE2EAccount({ users: { ana: 'all=write' }, items: [{ reference: 'sindominio.es', service: 'normal' }] });
  await signInContext(context, account, 'ana');
  await expectNotFound(page, `/admin/${account.items['sindominio.es']}/domain/`);
});

test('service and DNS: an item without hosting shows the 404 view at its service, FTP, databases, sites and zone pages', async ({
  page,
  context,
}) => {
  const account = await createE2EAccount({ users: { ana: 'all=write' }, items: [{ reference: 'solodominio.es', domain: true }] });
  await signInContext(context, account, 'ana');
  const id = account.items['solodominio.es'];
  for (const page_ of ['service/', 'service/ftp/', 'service/ddbb/', 'service/subdomain/', 'service/dns/']) {
    await expectNotFound(page, `/admin/${id}/${page_}`);
    await expect(page.getByRole('button', { name: 'Acciones de la zona' })).toHaveCount(0);
  }
});

test('mail: an item without mail shows the 404 view at its mail page', async ({ page, context }) => {
  const account = await createE2EAccount({ users: { ana: 'all=write' }, items: [{ reference: 'sincorreo.es', domain: true }] });
  await signInContext(context, account, 'ana');
  await expectNotFound(page, `/admin/${account.items['sincorreo.es']}/mail/`);
});

test('FTP and databases: without their area visible the pages are the 404 view, not a line of text', async ({ page, context }) => {
  const account = await createE2EAccount({
    users: { ana: 'all=write,service_ftp=disabled,service_ddbb=disabled' },
    items: [{ reference: 'sinftp.es', service: 'normal' }],
  });
  await signInContext(context, account, 'ana');
  const id = account.items['sinftp.es'];
  await expectNotFound(page, `/admin/${id}/service/ftp/`);
  await expectNotFound(page, `/admin/${id}/service/ddbb/`);
  await page.goto(`/admin/${id}/service/`);
  await expect(page.getByRole('heading', { name: 'Alojamiento', level: 2 })).toBeVisible();
});

test('sites: a parking service has no sites page, it is the 404 view', async ({ page, context }) => {
  const account = await createE2EAccount({ users: { ana: 'all=write' }, items: [{ reference: 'aparcado.es', service: 'parking' }] });
  await signInContext(context, account, 'ana');
  await expectNotFound(page, `/admin/${account.items['aparcado.es']}/service/subdomain/`);
});

test('a main load that fails with an HTML answer is the 404 view plus a translated toast, not a raw page', async ({ page, context }) => {
  const account = await createE2EAccount({ users: { ana: 'all=write' }, items: [{ reference: 'roto.es', domain: true }] });
  await signInContext(context, account, 'ana');
  const id = account.items['roto.es'];
  await page.route(`**/p247/domain/${id}/`, (route) =>
    route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1></body></html>' }),
  );
  await expectNotFound(page, `/admin/${id}/domain/`);
  await expect(page.locator('.mantine-Notification-root')).toHaveText('Error interno');
  await expect(page.getByText('Bad Gateway')).toHaveCount(0);
});
