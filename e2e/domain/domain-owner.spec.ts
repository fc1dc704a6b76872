import { expect, test } from '@playwright/test';
import { openDomain } from './helpers.ts';

test('a writer changing the registrant to someone else confirms it, is told of the 60-day transfer lock, and sees the lock on the domain', async ({
  page,
}) => {
  await openDomain(page, 'w');
  await page.getByRole('button', { name: 'Editar contacto: Titular' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Correo electrónico' }).fill('nueva-titular@example.com');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  const ask = dialog.getByTestId('owner-change');
  await expect(ask.getByRole('alert')).toHaveText(
    'El titular pasa a ser otra persona u organización: confirma el cambio. El dominio no se podrá transferir durante 60 días salvo que lo evites',
  );
  await expect(page.getByTestId('transfer-lock')).toHaveCount(0);
  await ask.getByRole('checkbox', { name: 'Confirmo el cambio de titular' }).check();
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/^Titular cambiado: el dominio no se podrá transferir hasta el \d{4}-\d{2}-\d{2}$/)).toBeVisible();
  await expect(page.getByTestId('transfer-lock')).toContainText('Por el cambio de titular no se puede transferir hasta el', {
    timeout: 15_000,
  });
  await expect(page.getByTestId('contact-registrant').getByText('nueva-titular@example.com')).toBeVisible({ timeout: 15_000 });
});
