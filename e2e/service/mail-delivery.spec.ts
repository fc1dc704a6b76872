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
