import { expect, test } from '@playwright/test';
import { grant, parsePermissionMap } from '../../apps/server/src/modules/provisioning/accounts.ts';
import { signInContext, withE2EStore } from '../support/accounts.ts';
import { dialog, hostingAccount, toast } from './helpers.ts';

test('the service view: PHP change, and parking on and off after confirmation with a label that says the switch’s state', async ({
  page,
  context,
}) => {
  const { account, id } = await hostingAccount();
  await signInContext(context, account, 'admin');
  await page.goto(`/admin/${id}/service/`);
  await expect(page.getByRole('heading', { name: 'Alojamiento' })).toBeVisible();
  await expect(page.getByText(`ftp.`, { exact: false }).first()).toBeVisible();

  // The usage bars are drawn (their styles load with the screen): a thin bar, not nothing.
  const bar = (await page.locator('.mantine-Progress-root').first().boundingBox())!;
  expect(bar.height).toBeGreaterThan(2);
  expect(bar.height).toBeLessThan(24);

  await page.getByTestId('php-button').click();
  await dialog(page).getByLabel('Versión de PHP').click();
  await expect(page.getByRole('option', { name: 'PHP 5.6' })).toBeVisible();
  await page.getByRole('option', { name: 'PHP 8.3' }).click();
  await dialog(page).getByRole('button', { name: 'Guardar' }).click();
  await toast(page, 'Versión de PHP cambiada');
  await expect(page.getByTestId('php-button')).toHaveText('PHP 8.3');

  // The switch is named for what it switches; its visible label says the state it shows.
  const parking = page.getByRole('switch', { name: 'Aparcamiento', exact: true });
  const label = page.locator('label').filter({ has: page.getByTestId('parking-switch-state') });
  await expect(parking).not.toBeChecked();
  await expect(label).toHaveText('Desactivado');
  await parking.dispatchEvent('click');
  await dialog(page).getByRole('button', { name: 'Confirmar' }).click();
  await toast(page, 'Aparcamiento activado');
  await expect(parking).toBeChecked();
  await expect(label).toHaveText('Activado');
  await parking.dispatchEvent('click');
  await dialog(page).getByRole('button', { name: 'Confirmar' }).click();
  await toast(page, 'Aparcamiento desactivado');
  await expect(parking).not.toBeChecked();
  await expect(label).toHaveText('Desactivado');

  await page.getByRole('button', { name: 'Registro de errores' }).click();
  await expect(dialog(page)).toBeVisible();
});

test('a read-only user sees no write controls anywhere in the service area', async ({ page, context }) => {
  const { account, reference, id } = await hostingAccount();
  // Something to show in each list, created by the writer.
  const admin = await context.browser()!.newContext({ baseURL: `http://127.0.0.1:${process.env.E2E_PORT ?? 18123}` });
  await signInContext(admin, account, 'admin');
  const api = admin.request;
  const headers = { 'x-dd-request': '1' };
  await api.post(`/p247/service/${id}/correo/create/`, { headers, form: { name: 'info', password: 'Clave-segura-1' } });
  await api.post(`/p247/service/${id}/alias/create/`, { headers, form: { name: 'ventas', target: 'info@example.com' } });
  await api.post(`/p247/service/${id}/ftp/create/`, { headers, form: { ftpUser: 'web', password: 'Clave-segura-1', folder: '/' } });
  await api.post(`/p247/service/${id}/ddbb/create/`, { headers, form: { password: 'Clave-segura-1' } });
  await admin.close();

  await signInContext(context, account, 'viewer');
  await page.goto(`/admin/${id}/service/`);
  await expect(page.getByTestId('php-text')).toBeVisible();
  await expect(page.getByTestId('php-button')).toHaveCount(0);
  await expect(page.getByRole('switch')).toHaveCount(0);
  await expect(page.getByTestId('parking-status')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Constructor web' })).toHaveCount(0);

  await page.goto(`/admin/${id}/service/ftp/`);
  await expect(page.getByRole('row', { name: new RegExp(`web\\.${reference.replace('.', '\\.')}`) })).toBeVisible();
  await expect(page.getByTestId('ftp-create')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Acciones de/ })).toHaveCount(0);

  await page.goto(`/admin/${id}/service/ddbb/`);
  await expect(page.getByRole('row', { name: /_1/ })).toBeVisible();
  await expect(page.getByTestId('ddbb-create')).toHaveCount(0);
  // A password and the phpMyAdmin sign-in are credentials: only a writer gets them (decision 029),
  // so a reader's row has neither the access button nor an actions menu.
  await expect(page.getByRole('button', { name: 'Acceder' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Acciones de/ })).toHaveCount(0);

  await page.goto(`/admin/${id}/mail/`);
  await expect(page.getByRole('row', { name: /^info@/ })).toBeVisible();
  await expect(page.getByTestId('mail-create')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Webmail' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Acciones de info@/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Acciones de ventas@/ })).toHaveCount(0);
});

test('a switch whose write was taken away meanwhile sends nothing: its confirmation closes with "no permission"', async ({
  page,
  context,
}) => {
  const { account, reference, id } = await hostingAccount();
  await signInContext(context, account, 'admin');
  // The live socket would reload the permissions and close the dialog by itself (live-menu.spec.ts);
  // cut here, as on a connection that lost it, the confirmation meets the server's check instead.
  await page.routeWebSocket(/\/p247\/ws$/, () => {});
  await page.goto(`/admin/${id}/service/`);
  const parking = page.getByRole('switch', { name: 'Aparcamiento', exact: true });
  await expect(parking).not.toBeChecked();
  await parking.dispatchEvent('click');
  await expect(dialog(page)).toBeVisible();
  // Behind the browser's back, as an operator would.
  await withE2EStore((store) => grant(store, account.realm, 'admin', reference, parsePermissionMap('all=write,service_parking=read')));
  const writes: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/parking/')) writes.push(request.url());
  });
  await dialog(page).getByRole('button', { name: 'Confirmar' }).click();
  await toast(page, 'Sin permiso');
  await expect(dialog(page)).toBeHidden();
  expect(writes).toEqual([]);
  // The permissions read for the check show the switch as the read-only state now.
  await expect(page.getByTestId('parking-status')).toHaveText('Desactivado');
});
