import { expect, test } from '@playwright/test';
import { openZone } from './helpers.ts';

test('a writer applies a provider template after its preview: only the RRsets it names change, and the history names it', async ({
  page,
}) => {
  const account = await openZone(page, 'w');
  const rows = page.getByTestId('dns-row');
  await expect(rows.filter({ hasText: `mail.${account.zone}` }).filter({ hasText: 'MX' })).toHaveCount(1);
  await page.getByRole('button', { name: 'Acciones de la zona' }).click();
  await page.getByRole('menuitem', { name: 'Aplicar una plantilla' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('button', { name: 'Ver cambios' })).toBeDisabled();
  await dialog.getByRole('combobox', { name: 'Plantilla' }).click();
  await page.getByRole('option', { name: 'Correo de Ejemplo Mail' }).click();
  await dialog.getByRole('button', { name: 'Ver cambios' }).click();

  // The preview: the MX and SPF it replaces (before → after), the name it adds; nothing else removed.
  const changed = dialog.getByTestId('plan-changed');
  await expect(changed).toContainText(
    `${account.zone} 3600 MX 10 mail.${account.zone}. → 3600 10 mx1.ejemplo-correo.net. | 20 mx2.ejemplo-correo.net.`,
  );
  await expect(changed).toContainText('v=spf1 include:_spf.ejemplo-correo.net ~all');
  await expect(dialog.getByTestId('plan-added')).toContainText(`autodiscover.${account.zone} 3600 CNAME autodiscover.ejemplo-correo.net.`);
  await expect(dialog.getByTestId('plan-removed')).toHaveCount(0);
  await expect(dialog.getByTestId('plan-refused')).toHaveCount(0);
  // Nothing applied by the preview.
  await expect(rows.filter({ hasText: 'mx1.ejemplo-correo.net' })).toHaveCount(0);

  await dialog.getByRole('button', { name: 'Aplicar plantilla' }).click();
  await expect(dialog).toBeHidden();
  await expect(rows.filter({ hasText: 'mx1.ejemplo-correo.net' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'mx2.ejemplo-correo.net' })).toHaveCount(1);
  await expect(rows.filter({ hasText: `autodiscover.${account.zone}` })).toHaveCount(1);
  await expect(rows.filter({ hasText: `mail.${account.zone}` }).filter({ hasText: 'MX' })).toHaveCount(0);
  // The records it does not name stay.
  await expect(rows.filter({ hasText: `www.${account.zone}` })).toHaveCount(1);
  const history = page.getByTestId('dns-history');
  await expect(history.getByRole('row').first()).toContainText('Plantilla');

  // Applied twice, it would change nothing: the preview says so.
  await page.getByRole('button', { name: 'Acciones de la zona' }).click();
  await page.getByRole('menuitem', { name: 'Aplicar una plantilla' }).click();
  await dialog.getByRole('combobox', { name: 'Plantilla' }).click();
  await page.getByRole('option', { name: 'Correo de Ejemplo Mail' }).click();
  await dialog.getByRole('button', { name: 'Ver cambios' }).click();
  await expect(dialog).toContainText('Nada cambia: la zona ya tiene estos registros');
});
