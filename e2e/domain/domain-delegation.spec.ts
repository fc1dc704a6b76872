import { expect, test } from '@playwright/test';
import { createE2EAccount, signInContext, unique } from '../support/accounts.ts';
import { openDomain } from './helpers.ts';

test('the domain screen of a domain whose zone the panel hosts checks the delegation and names the fix of each fault', async ({ page }) => {
  await openDomain(page, 'w');
  const card = page.getByTestId('domain-delegation');
  await expect(card.getByRole('heading', { name: 'Delegación' })).toBeVisible();
  const check = card.getByRole('button', { name: 'Comprobar la delegación' });
  await check.click();
  const findings = card.getByTestId('dns-check').getByRole('listitem');
  // The test registry's new domain delegates elsewhere: the check names the mismatch and its fix.
  const mismatch = findings.filter({ hasText: 'El registro delega en ns1.example.net, ns2.example.net' });
  await expect(mismatch).toHaveCount(1, { timeout: 15_000 });
  await expect(mismatch).toContainText('Error');
  await expect(mismatch).toContainText('pero la zona anuncia ns1.atalaya.test, ns2.atalaya.test');
  await expect(mismatch).toContainText('Cambia los servidores de nombres del dominio a ns1.atalaya.test, ns2.atalaya.test');
  // A server whose address is not found, with its fix.
  await expect(findings.filter({ hasText: 'No se encuentra la dirección del servidor ns1.atalaya.test' })).toContainText(
    'Crea el registro A o AAAA de ns1.atalaya.test o corrige su nombre',
  );

  // Following the fix on this same screen: the name servers the zone announces.
  await page.getByTestId('summary-dns').getByRole('button', { name: 'Editar' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('radio', { name: 'Usar servidores DNS personalizados' }).check();
  await dialog.getByRole('textbox', { name: 'Servidor DNS 1' }).fill('ns1.atalaya.test');
  await dialog.getByRole('textbox', { name: 'Servidor DNS 2' }).fill('ns2.atalaya.test');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('summary-dns').getByText('ns2.atalaya.test')).toBeVisible({ timeout: 15_000 });
  // The registry change goes through the outbox: checked again until it is applied.
  const match = findings.filter({
    hasText: 'Los servidores del registro coinciden con los de la zona: ns1.atalaya.test, ns2.atalaya.test',
  });
  await expect(async () => {
    await check.click();
    await expect(match).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(match).toContainText('Bien');
  await expect(mismatch).toHaveCount(0);
});

test('the domain screen shows no delegation check for a domain without the zone here, nor to a user who may not see the zone', async ({
  page,
}) => {
  const bare = unique('solo-dominio-e2e.com');
  const hosted = unique('con-zona-e2e.com');
  const account = await createE2EAccount({
    users: { w: 'all=write' },
    items: [
      { reference: bare, domain: true },
      { reference: hosted, domain: true, service: 'normal' },
    ],
  });
  const limited = await createE2EAccount({
    users: { n: 'all=write,service_dnszone=disabled' },
    items: [{ reference: unique('sin-permiso-e2e.com'), domain: true, service: 'normal' }],
  });
  await signInContext(page.context(), account, 'w');
  await page.goto(`/admin/${account.items[hosted]}/domain/`);
  await expect(page.getByTestId('domain-delegation')).toBeVisible({ timeout: 15_000 });
  await page.goto(`/admin/${account.items[bare]}/domain/`);
  await expect(page.getByTestId('contact-registrant')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('domain-delegation')).toHaveCount(0);
  await page.context().clearCookies();
  await signInContext(page.context(), limited, 'n');
  await page.goto(`/admin/${Object.values(limited.items)[0]}/domain/`);
  await expect(page.getByTestId('contact-registrant')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('domain-delegation')).toHaveCount(0);
});
