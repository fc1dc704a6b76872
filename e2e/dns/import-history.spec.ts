import { expect, test } from '@playwright/test';
import { openZone } from './helpers.ts';

test('a writer imports a zone file after its preview, then reverts the import from the history', async ({ page }) => {
  const account = await openZone(page, 'w');
  const file = [
    `$ORIGIN ${account.zone}.`,
    '$TTL 3600',
    '@ IN NS ns1.atalaya.test.',
    '@ IN NS ns2.atalaya.test.',
    'importado IN A 203.0.113.77',
    'txt IN TXT ( "dos" "partes" )',
    'viejo IN HINFO "PC" "Linux"',
  ].join('\n');
  await page.getByRole('button', { name: 'Acciones de la zona' }).click();
  await page.getByRole('menuitem', { name: 'Importar zona' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Fichero de zona (RFC 1035)' }).fill(file);
  await dialog.getByRole('button', { name: 'Ver cambios' }).click();
  await expect(dialog.getByTestId('plan-added')).toContainText(`importado.${account.zone} 3600 A 203.0.113.77`);
  await expect(dialog.getByTestId('plan-added')).toContainText('"dospartes"');
  await expect(dialog.getByTestId('plan-refused')).toContainText('El panel no sirve registros HINFO');
  // The template's records the file does not hold are listed as removed before anything is applied.
  await expect(dialog.getByTestId('plan-removed')).toContainText(`www.${account.zone}`);
  const rows = page.getByTestId('dns-row');
  await expect(rows.filter({ hasText: `importado.${account.zone}` })).toHaveCount(0);

  await dialog.getByRole('button', { name: 'Aplicar cambios' }).click();
  await expect(dialog).toBeHidden();
  await expect(rows.filter({ hasText: `importado.${account.zone}` })).toHaveCount(1);
  const history = page.getByTestId('dns-history');
  await expect(history.getByRole('row').first()).toContainText('Importación');

  await history.getByRole('row').first().getByRole('button', { name: 'Deshacer' }).click();
  await expect(page.getByText('Cambio deshecho')).toBeVisible();
  await expect(rows.filter({ hasText: `importado.${account.zone}` })).toHaveCount(0);
  await expect(rows.filter({ hasText: `www.${account.zone}` })).toHaveCount(1);
  await expect(history.getByRole('row').nth(1)).toContainText('Deshecho');
});
