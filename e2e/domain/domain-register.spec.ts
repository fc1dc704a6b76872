import { expect, test } from '@playwright/test';
import { createE2EAccount, signInContext, unique, withE2EStore } from '../support/accounts.ts';
import { openDomain } from './helpers.ts';

test('a domain not registered yet reads so; a reader has no register button, a writer registers it, billed once', async ({
  page,
  browser,
}) => {
  const DOMAIN = unique('alta-e2e.com');
  const account = await createE2EAccount(
    { users: { w: 'all=write', r: 'all=read' }, items: [{ reference: DOMAIN, domain: true }] },
    { unregistered: true },
  );
  const id = account.items[DOMAIN];
  await signInContext(page.context(), account, 'r');
  await page.goto(`/admin/${id}/domain/`);
  const card = page.getByTestId('domain-unregistered');
  await expect(card.getByTestId('registration-state')).toHaveText('Sin registrar', { timeout: 15_000 });
  await expect(card.getByText('Pide a quien gestiona el dominio que lo registre.')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Registrar' })).toHaveCount(0);
  await expect(page.getByTestId('contact-registrant')).toHaveCount(0);

  const writer = await browser.newContext();
  await signInContext(writer, account, 'w');
  const mine = await writer.newPage();
  await mine.goto(`/admin/${id}/domain/`);
  await mine.getByTestId('domain-unregistered').getByRole('button', { name: 'Registrar' }).click();
  const dialog = mine.getByRole('dialog');
  await expect(dialog.getByText('El registro se factura.', { exact: false })).toBeVisible();
  await dialog.getByRole('button', { name: 'Registrar' }).click();
  // Queued for the registry, then applied by the server's worker: the domain screen as usual.
  await expect(mine.getByTestId('contact-registrant')).toBeVisible({ timeout: 20_000 });
  await expect(mine.getByTestId('domain-unregistered')).toHaveCount(0);
  const lines = await withE2EStore((store) =>
    store.selectFrom('billing_event').selectAll().where('item_id', '=', id).where('action', '=', 'register').execute(),
  );
  expect(lines).toHaveLength(1);
  expect(lines[0].actor).toBe(`user:${account.users.w}`);
  await writer.close();
});

test('a writer reveals the auth code, recorded in the activity log; a reader sees only that one is set', async ({ page, browser }) => {
  const account = await openDomain(page, 'w');
  const id = account.items[account.domain];
  await page.getByRole('button', { name: /^Ver Código de autorización/ }).click();
  await expect(page.getByTestId('auth-secret')).toHaveText(/^.{16}$/);
  const code = await page.getByTestId('auth-secret').textContent();
  const reveals = await withE2EStore((store) =>
    store.selectFrom('audit_event').selectAll().where('item_id', '=', id).where('action', '=', 'domain.authcode').execute(),
  );
  expect(reveals).toHaveLength(1);
  expect(reveals[0].user_id).toBe(account.users.w);
  expect(JSON.stringify(reveals[0])).not.toContain(code);

  const reader = await browser.newContext();
  await signInContext(reader, account, 'r');
  const theirs = await reader.newPage();
  await theirs.goto(`/admin/${id}/domain/`);
  await expect(theirs.getByTestId('auth-secret-state')).toHaveText(
    'El dominio tiene Código de autorización (authcode). Solo quien puede gestionarlo puede verlo.',
    { timeout: 15_000 },
  );
  await expect(theirs.getByRole('button', { name: /^Ver Código de autorización/ })).toHaveCount(0);
  await expect(theirs.getByRole('button', { name: 'Copiar' })).toHaveCount(0);
  await expect(theirs.getByTestId('auth-secret')).toHaveCount(0);
  await reader.close();
});
