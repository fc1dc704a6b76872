import { expect, test } from '@playwright/test';
import { failJob, signInContext, withE2EStore } from '../support/accounts.ts';
import { dialog, hostingAccount, toast } from './helpers.ts';

test('a failed FTP user shows its failure with a retry button that applies the change again; a reader sees no button', async ({
  browser,
}) => {
  const { account, reference, id } = await hostingAccount();
  const writer = await browser.newContext();
  await signInContext(writer, account, 'admin');
  const page = await writer.newPage();
  await page.goto(`/admin/${id}/service/ftp/`);
  await page.getByTestId('ftp-create').click();
  await dialog(page).getByLabel('Usuario').fill('caido');
  await dialog(page).locator('input[name="password"]').fill('Ftp-pass-123');
  await dialog(page).getByLabel('Carpeta').fill('/');
  await dialog(page).getByRole('button', { name: 'Crear' }).click();
  await toast(page, 'Usuario FTP creado');
  const login = `caido.${reference}`;
  const row = page.getByRole('row', { name: new RegExp(login.replace(/\./g, '\\.')) });
  await expect(row.getByTestId('state-pending')).toHaveCount(0);
  await failJob(
    (await withE2EStore((store) => store.selectFrom('ftp_user').select('job_id').where('login', '=', login).executeTakeFirstOrThrow()))
      .job_id!,
    'pure-pw: exit 1',
  );
  await page.reload();
  await expect(row.getByTestId('state-failed')).toHaveText('Error al aplicar');

  const reader = await browser.newContext();
  await signInContext(reader, account, 'viewer');
  const readerPage = await reader.newPage();
  await readerPage.goto(`/admin/${id}/service/ftp/`);
  await expect(readerPage.getByTestId('state-failed')).toBeVisible();
  await expect(readerPage.getByTestId('state-retry')).toHaveCount(0);

  await row.getByRole('button', { name: `Reintentar el cambio de ${login}` }).click();
  await toast(page, 'Se volverá a aplicar el cambio');
  await expect(row.getByTestId('state-failed')).toHaveCount(0);
  await expect(row.getByTestId('state-retry')).toHaveCount(0);
  await writer.close();
  await reader.close();
});
