import { expect, test } from '@playwright/test';
import { createE2EAccount, signInContext, unique, withE2EStore } from '../support/accounts.ts';

// Names of this run's own: lote01-<tag>.com … lote50-<tag>.com.
const tag = unique('x').slice(2);
const names = Array.from({ length: 50 }, (_, i) => `lote${String(i + 1).padStart(2, '0')}-${tag}.com`);

test('a writer renews 50 domains from the list in one batch, follows its progress bar, and sees the one refusal with its reason', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const account = await createE2EAccount({ users: { w: 'all=write' }, items: names.map((reference) => ({ reference, domain: true })) });
  // One of them lapsed 50 days ago: past its grace, in redemption, no longer renewable.
  const lapsed = Math.floor(Date.now() / 1000) - 50 * 86_400;
  const refused = names[36];
  await withE2EStore((store) =>
    store.updateTable('domain').set({ expire_at: lapsed, updated_at: lapsed }).where('item_id', '=', account.items[refused]).execute(),
  );
  await signInContext(context, account, 'w');
  await page.goto('/admin/domain/');
  const rows = page.getByRole('table', { name: 'Dominios' }).locator('tbody tr');
  await expect(rows.first()).toContainText(names[0], { timeout: 15_000 });
  // Each page of 10 selected from its header box; the selection stays as the pages turn.
  for (let p = 1; p <= 5; p++) {
    if (p > 1) await page.getByRole('button', { name: String(p), exact: true }).click();
    await expect(rows.first()).toContainText(names[(p - 1) * 10]);
    await page.getByRole('checkbox', { name: 'Seleccionar los dominios de esta página' }).check();
  }
  await page.getByTestId('bulk-open').click();
  const dialog = page.getByRole('dialog', { name: 'Acción sobre 50 dominios' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Aplicar' }).click();
  await expect(page.getByText('Acción en curso en 50 dominios')).toBeVisible();
  const progress = page.getByTestId('bulk-progress');
  await expect(progress.getByTestId('bulk-bar')).toBeVisible();
  await expect(progress.getByTestId('bulk-counts')).toHaveText('49 hechos, 1 rechazados, 0 omitidos, 0 en cola', { timeout: 60_000 });
  await expect(progress.getByRole('progressbar', { name: '50 de 50 dominios' })).toBeVisible();
  const refusal = progress.getByTestId('bulk-results').locator('tr[data-state="failed"]');
  await expect(refusal).toHaveCount(1);
  await expect(refusal).toContainText(refused);
  await expect(refusal).toContainText('El dominio ya no se puede renovar: está en periodo de rescate o pendiente de borrado');
  await expect(progress.getByRole('button', { name: 'Reintentar los 1 rechazados' })).toBeVisible();
  const billed = await withE2EStore((store) =>
    store.selectFrom('billing_event').select('domain').where('domain', 'like', `lote%-${tag}.com`).where('action', '=', 'renew').execute(),
  );
  expect(billed).toHaveLength(49);
  expect(billed.map((b) => b.domain)).not.toContain(refused);
});
