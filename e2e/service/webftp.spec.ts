import { expect, test } from '@playwright/test';
import { signInContext } from '../support/accounts.ts';
import { hostingAccount } from './helpers.ts';

test('the service view’s WebFTP button opens WebFTP signed in as the first FTP user, in its folder', async ({ page, context }) => {
  const { account, reference, id } = await hostingAccount();
  await signInContext(context, account, 'admin');
  const created = await context.request.post(`/p247/service/${id}/ftp/create/`, {
    headers: { 'x-dd-request': '1' },
    form: { ftpUser: 'web', password: 'Clave-segura-1', folder: 'public' },
  });
  expect(created.status()).toBe(200);
  // The provider's WebFTP (hosting.webFtpUrl): answered here, the form it receives kept.
  const posted: string[] = [];
  await context.route('https://webftp.example.net/**', async (route) => {
    posted.push(route.request().postData() ?? '');
    await route.fulfill({ contentType: 'text/html', body: '<title>WebFTP</title>' });
  });
  await page.goto(`/admin/${id}/service/`);
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'WebFTP' }).click();
  await (await popup).waitForLoadState();
  expect(posted).toHaveLength(1);
  const form = new URLSearchParams(posted[0]);
  expect(form.get('server')).toBe(`ftp.${reference}`);
  expect(form.get('username')).toBe(`web.${reference}`);
  expect(form.get('password')).toBe('Clave-segura-1');
  expect(form.get('directory')).toBe('/public');
  await expect(page).toHaveURL(`/admin/${id}/service/`);
});

test('without any FTP user the WebFTP button leads to the FTP list, where one is created', async ({ page, context }) => {
  const { account, id } = await hostingAccount();
  await signInContext(context, account, 'admin');
  await page.goto(`/admin/${id}/service/`);
  await page.getByRole('button', { name: 'WebFTP' }).click();
  await expect(page).toHaveURL(`/admin/${id}/service/ftp/`);
  await expect(page.getByTestId('ftp-create')).toBeVisible();
});
