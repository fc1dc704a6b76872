import { expect, test } from '@playwright/test';
import { openZone } from './helpers.ts';

test('a writer switches DNSSEC on after a confirmation naming the registry, and sees the DS placed there', async ({ page }) => {
  const account = await openZone(page, 'w');
  const panel = page.getByTestId('dnssec-panel');
  await expect(panel.getByTestId('dnssec-state')).toHaveText('Sin firmar');
  await expect(panel.getByRole('switch', { name: 'Firma DNSSEC' })).not.toBeChecked();
  await panel.getByRole('switch', { name: 'Firma DNSSEC' }).dispatchEvent('click');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Se firmará ${account.zone} y su DS se publicará en el registro automáticamente`);
  await dialog.getByRole('button', { name: 'Confirmar' }).click();
  await expect(panel.getByTestId('dnssec-state')).toHaveText('Firmada', { timeout: 15_000 });
  await expect(panel.getByRole('switch', { name: 'Firma DNSSEC' })).toBeChecked();
  const ds = panel.getByTestId('dnssec-ds');
  await expect(ds).toHaveCount(1);
  await expect(ds).toContainText(new RegExp(`^${account.zone.replace(/\./g, '\\.')}\\. IN DS \\d+ 13 2 [0-9A-F]{64}`));
  await expect(ds).toContainText('En el registro');
});
