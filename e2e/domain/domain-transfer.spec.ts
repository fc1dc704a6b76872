import { expect, type Page, test } from '@playwright/test';
import { createE2EAccount, signInContext, unique, withE2EStore } from '../support/accounts.ts';
import { type DomainAccount, openDomain } from './helpers.ts';

const DAY = 86_400;

/** Another registrar account asks the local registry for the domain (its state in the store, as the registry keeps it). */
async function requestedByAnother(page: Page, account: DomainAccount) {
  const itemId = account.items[account.domain];
  const at = Math.floor(Date.now() / 1000);
  await withE2EStore(async (store) => {
    await store
      .insertInto('domain_transfer')
      .values({
        item_id: itemId,
        status: 'pending',
        requested_by: 'registrar-b',
        requested_at: at,
        action_by: 'panel',
        action_at: at + 5 * DAY,
        years: 1,
      })
      .execute();
    await store.updateTable('domain').set({ updated_at: at }).where('item_id', '=', itemId).execute();
  });
  await page.reload();
}

test('a writer of the auth code sees who asked for the domain and when it goes by itself, and approves the transfer out', async ({
  page,
}) => {
  const account = await openDomain(page, 'w');
  await requestedByAnother(page, account);
  const card = page.getByTestId('domain-transfer');
  await expect(card.getByTestId('transfer-text')).toContainText('registrar-b pidió este dominio el', { timeout: 15_000 });
  await expect(card.getByTestId('transfer-text')).toContainText('el registro aprobará la transferencia el');
  await card.getByRole('button', { name: 'Aprobar' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('El dominio pasará ahora a registrar-b');
  await dialog.getByRole('button', { name: 'Aprobar' }).click();
  await expect(page.getByText('Transferencia aprobada: el dominio pasa al otro registrador')).toBeVisible();
  // Once the registry has it, the domain is the other registrar's: only its transfer shows.
  await expect(card.getByTestId('transfer-text')).toContainText('El dominio se transfirió a registrar-b el', { timeout: 15_000 });
  await expect(page.getByTestId('domain-life')).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Aprobar' })).toHaveCount(0);
});

test('a reader sees the request but no way to answer it', async ({ page }) => {
  const account = await openDomain(page, 'r');
  await requestedByAnother(page, account);
  const card = page.getByTestId('domain-transfer');
  await expect(card.getByTestId('transfer-text')).toContainText('registrar-b pidió este dominio el', { timeout: 15_000 });
  await expect(card.getByRole('button', { name: 'Aprobar' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Rechazar' })).toHaveCount(0);
});

test('a domain held at another registrar shows only its transfer in, and a wrong auth code is refused under its field', async ({
  page,
}) => {
  const name = unique('llega-e2e.com');
  const account = await createE2EAccount({ users: { w: 'all=write' }, items: [{ reference: name, domain: true, transferIn: true }] });
  await signInContext(page.context(), account, 'w');
  await page.goto(`/admin/${account.items[name]}/domain/`);
  const card = page.getByTestId('domain-transfer');
  await expect(card.getByTestId('transfer-text')).toContainText('El dominio está en otro registrador (elsewhere)', { timeout: 15_000 });
  await expect(page.getByTestId('domain-life')).toHaveCount(0);
  await card.getByRole('button', { name: 'Transferir aquí' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Código de autorización').fill('no-es-el-codigo');
  await dialog.getByRole('button', { name: 'Transferir aquí' }).click();
  await expect(dialog.getByText('El código de autorización no es correcto: pídelo de nuevo al registrador actual')).toBeVisible();
  const queued = await withE2EStore((store) =>
    store.selectFrom('registry_change').select('id').where('item_id', '=', account.items[name]).execute(),
  );
  expect(queued).toHaveLength(0);
});
