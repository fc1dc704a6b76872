import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { createE2EAccount, signInContext } from '../support/accounts.ts';
import { elsewhereFile, type ServedRRset } from '../support/dns.ts';
import { E2E_DATA_DIR } from '../support/env.ts';
import { dialog, hostingAccount } from './helpers.ts';

const api = async (page: Page, path: string) => {
  const response = await page.request.get(`/p247${path}`, { headers: { 'x-dd-request': '1' } });
  expect(response.ok()).toBe(true);
  return (await response.json()).data;
};

/** Checks the card again until a finding shows (the server's worker publishes the records a moment after the item is made). */
async function findingShows(page: Page, code: string, text: RegExp | string) {
  const card = page.getByTestId('mail-health');
  await expect(async () => {
    await card.getByRole('button', { name: 'Comprobar' }).click();
    await expect(card.getByTestId(`mail-finding-${code}`)).toContainText(text, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
}

// Each waits for the server's worker to make the domain's key and publish it: more than one default test time.
test.describe.configure({ timeout: 60_000 });

test('the mail health card finds the records the panel published, then the DMARC taken away, with its fix', async ({ page, context }) => {
  const { account, reference, id } = await hostingAccount();
  await signInContext(context, account, 'admin');
  await page.goto(`/admin/${id}/mail/`);
  await expect(page.getByRole('heading', { name: 'Correo' })).toBeVisible({ timeout: 20_000 });
  const card = page.getByTestId('mail-health');
  await expect(card.getByText('Salud del correo')).toBeVisible();
  await findingShows(page, 'dkim_ok', /está publicada y coincide/);
  for (const code of ['mx_ok', 'spf_ok', 'dmarc_ok', 'mtasts_off']) await expect(card.getByTestId(`mail-finding-${code}`)).toBeVisible();
  await expect(card.getByTestId('mail-finding-mx_ok')).toContainText(`El correo del dominio llega a mail.${reference}`);

  const { dnss } = await api(page, `/service/${id}/dns/list/`);
  const dmarc = dnss.find((r: { zona: string }) => r.zona === '_dmarc');
  await api(page, `/service/${id}/dns/${dmarc.id}/delete/`);
  await findingShows(page, 'dmarc_missing', 'El dominio no publica DMARC');
  await expect(card.getByTestId('mail-finding-dmarc_missing')).toContainText(
    `Añade el registro TXT _dmarc.${reference} con el valor v=DMARC1; p=none`,
  );
  await expect(card.getByTestId('mail-finding-dmarc_missing')).toContainText('Error');

  // The records view says the panel publishes them, and shows what is there now.
  await card.getByRole('button', { name: 'Registros DNS' }).click();
  await expect(dialog(page).getByTestId('mail-records-hint')).toHaveText(
    `El panel aloja la zona de ${reference} y publica estos registros él mismo.`,
  );
  const dmarcRow = dialog(page)
    .getByTestId('mail-record')
    .filter({ hasText: `_dmarc.${reference}` });
  await expect(dmarcRow.getByTestId('mail-record-live')).toHaveText('Falta');
  const dkimRow = dialog(page).getByTestId('mail-record').filter({ hasText: '._domainkey.' });
  await expect(dkimRow.getByTestId('mail-record-live')).toHaveText('Publicado');
});

test('the records to copy where the zone is elsewhere: each checked live as the customer copies it', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const reference = `e2e${randomBytes(3).toString('hex')}.test`;
  const account = await createE2EAccount({ users: { admin: 'all=write' }, items: [{ reference, mail: true }] });
  const id = account.items[reference]!;
  await signInContext(context, account, 'admin');
  await page.goto(`/admin/${id}/mail/`);
  await page.getByTestId('mail-health').getByRole('button', { name: 'Registros DNS' }).click();
  const view = dialog(page);
  await expect(view.getByTestId('mail-records-hint')).toContainText(
    `La zona de ${reference} está en otro proveedor: copia allí estos registros.`,
  );
  const row = (name: string) => view.getByTestId('mail-record').filter({ hasText: name });
  await expect(row(`_dmarc.${reference}`).getByTestId('mail-record-live')).toHaveText('Sin respuesta');
  // The DKIM record waits for its key (the server's worker makes it).
  await expect(async () => {
    await view.getByRole('button', { name: 'Volver a comprobar' }).click();
    await expect(row('._domainkey.').first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });

  // The customer copies the DKIM value and puts it, with the MX, at their DNS host.
  const dkim = row('._domainkey.');
  await dkim.getByRole('button', { name: /^Copiar .*TXT$/ }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(/^"v=DKIM1; k=rsa; p=[^"]{200,}" "[^"]+"$/);
  const dkimName = (await dkim.locator('code').first().textContent())!;
  const zones: { name: string; rrsets: ServedRRset[] }[] = existsSync(elsewhereFile(E2E_DATA_DIR))
    ? JSON.parse(readFileSync(elsewhereFile(E2E_DATA_DIR), 'utf8'))
    : [];
  zones.push({
    name: reference,
    rrsets: [
      { name: `${reference}.`, type: 'MX', ttl: 60, contents: [`10 mail.${reference}.`] },
      { name: `${dkimName}.`, type: 'TXT', ttl: 60, contents: [copied] },
    ],
  });
  writeFileSync(elsewhereFile(E2E_DATA_DIR), JSON.stringify(zones));
  await view.getByRole('button', { name: 'Volver a comprobar' }).click();
  await expect(row('Entrada del correo').getByTestId('mail-record-live')).toHaveText('Publicado');
  await expect(dkim.getByTestId('mail-record-live')).toHaveText('Publicado');
  await expect(row(`_dmarc.${reference}`).getByTestId('mail-record-live')).toHaveText('Falta');
  await view.getByRole('button', { name: 'Cerrar' }).click();
  await expect(dialog(page)).toHaveCount(0);

  // The card says the same in plain words, with the fix for what is still missing.
  await findingShows(page, 'dmarc_missing', `Añade el registro TXT _dmarc.${reference} con el valor v=DMARC1; p=none`);
  await expect(page.getByTestId('mail-finding-dkim_ok')).toBeVisible();
});
