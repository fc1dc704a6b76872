import { expect, test } from '@playwright/test';
import { openZone, passDnssecWait } from './helpers.ts';

test('a writer switches DNSSEC on after a confirmation naming the registry, sees the zone signed at once and the DS placed there once the key is known', async ({
  page,
}) => {
  const account = await openZone(page, 'w');
  const panel = page.getByTestId('dnssec-panel');
  await expect(panel.getByTestId('dnssec-state')).toHaveText('Sin firmar');
  await expect(panel.getByRole('switch', { name: 'Firma DNSSEC' })).not.toBeChecked();
  await panel.getByRole('switch', { name: 'Firma DNSSEC' }).dispatchEvent('click');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Se firmará ${account.zone} y su DS se publicará en el registro automáticamente`);
  await dialog.getByRole('button', { name: 'Confirmar' }).click();
  // Signed at once; the DS waits until the key has been served for its TTL.
  await expect(panel.getByTestId('dnssec-state')).toHaveText('Firmada: esperando a que se conozca la clave antes de publicar el DS', {
    timeout: 15_000,
  });
  await expect(panel.getByRole('switch', { name: 'Firma DNSSEC' })).toBeChecked();
  await expect(panel.getByTestId('dnssec-due')).toContainText('El DS se publicará en el registro a partir de');
  const ds = panel.getByTestId('dnssec-ds');
  await expect(ds).toHaveCount(1);
  await expect(ds).toContainText(new RegExp(`^${account.zone.replace(/\./g, '\\.')}\\. IN DS \\d+ 13 2 [0-9A-F]{64}`));
  await expect(ds).not.toContainText('En el registro');
  await passDnssecWait(account);
  await expect(panel.getByTestId('dnssec-state')).toHaveText('Firmada', { timeout: 15_000 });
  await expect(ds).toContainText('En el registro');
  await expect(panel.getByTestId('dnssec-due')).toHaveCount(0);
});
