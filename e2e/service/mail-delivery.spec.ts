import { expect, test } from '@playwright/test';
import { signInContext } from '../support/accounts.ts';
import { dialog, hostingAccount, rowAction, toast } from './helpers.ts';

test('mail delivery: set an autoresponder and forwarding, see them on the account row, a bad date refused under its field', async ({
  page,
  context,
}) => {
  const { account, reference, id } = await hostingAccount();
  await signInContext(context, account, 'admin');
  await page.goto(`/admin/${id}/mail/`);
  await page.getByTestId('mail-create').click();
  await page.getByRole('menuitem', { name: 'Crear cuenta de correo' }).click();
  await dialog(page).getByLabel('Nombre').fill('ventas');
  await dialog(page).getByRole('button', { name: 'Crear' }).click();
  await toast(page, 'Cuenta de correo creada');
  const address = `ventas@${reference}`;
  const row = page.getByRole('row', { name: new RegExp(address.replace(/\./g, '\\.')) });
  await expect(row.getByTestId('mail-usage')).toHaveText(/de 1 GB$/);
  await expect(row.getByTestId('mail-autoreply')).toHaveCount(0);

  await rowAction(page, address, 'Cuota, respuesta automática y reenvío');
  const form = dialog(page);
  await form.getByLabel('Respuesta automática').check();
  await form.getByLabel('Asunto').fill('Fuera de la oficina');
  await form.getByLabel('Texto').fill('Vuelvo el lunes.');
  await form.getByLabel('Desde').fill('2026-12-10');
  await form.getByLabel('Hasta').fill('2026-12-01');
  await form.getByLabel('Reenviar a').fill('jefa@otro.test');
  await form.getByRole('button', { name: 'Guardar' }).click();
  await expect(form.getByText('La fecha de fin no puede ser anterior a la de inicio')).toBeVisible();
  await form.getByLabel('Hasta').fill('2026-12-20');
  await form.getByLabel('Guardar también una copia en este buzón').uncheck();
  await form.getByRole('button', { name: 'Guardar' }).click();
  await toast(page, 'Entrega del correo guardada');
  await expect(dialog(page)).toHaveCount(0);
  await expect(row.getByTestId('mail-autoreply')).toHaveText('Respuesta automática');
  await expect(row.getByTestId('mail-forward')).toHaveText('Reenvía a jefa@otro.test');

  // The dialog opens again on what was saved.
  await rowAction(page, address, 'Cuota, respuesta automática y reenvío');
  await expect(dialog(page).getByLabel('Asunto')).toHaveValue('Fuera de la oficina');
  await expect(dialog(page).getByLabel('Hasta')).toHaveValue('2026-12-20');
});

test('DKIM: the domain’s record to copy is shown, split into quoted strings, and a rotation publishes a new key first', async ({
  page,
  context,
}) => {
  const { account, reference, id } = await hostingAccount();
  await signInContext(context, account, 'admin');
  await page.goto(`/admin/${id}/mail/`);
  await page.getByRole('button', { name: 'DKIM' }).click();
  const records = dialog(page).getByTestId('dkim-record');
  // The key is made by a job queued with the mail service: it shows once the worker ran it.
  await expect(records).toHaveCount(1, { timeout: 15_000 });
  await expect(records.first()).toContainText(new RegExp(`\\._domainkey\\.${reference.replace(/\./g, '\\.')}`));
  await expect(records.first()).toContainText(/"v=DKIM1; k=rsa; p=MIIB[^"]+" "[^"]+"/);
  await expect(records.first()).toContainText('Firmando');
  await dialog(page).getByRole('button', { name: 'Cambiar las claves' }).click();
  await toast(page, 'Claves DKIM nuevas publicadas');
  await expect(records).toHaveCount(2);
  await expect(records.nth(1)).toContainText('Publicada, aún sin firmar');
});
