import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signInContext } from '../support/accounts.ts';
import { E2E_DATA_DIR } from '../support/env.ts';
import { hostingAccount } from './helpers.ts';

test('the service card measures the web space on demand and says when it was measured', async ({ page, context }) => {
  const { account, reference, id } = await hostingAccount();
  await signInContext(context, account, 'admin');
  await page.goto(`/admin/${id}/service/`);
  await expect(page.getByTestId('usage-measured')).toHaveText('Aún sin medir');
  await expect(page.getByText('0 B / ').first()).toBeVisible();
  // What a customer uploads lands in the service's web root (the local drivers': the data dir's www/).
  const root = path.join(E2E_DATA_DIR, 'www', reference);
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, 'index.html'), Buffer.alloc(3 * 1024 * 1024, 'a'));
  await page.getByRole('button', { name: 'Medir ahora' }).click();
  await expect(page.getByTestId('usage-measured')).toContainText('Medido el', { timeout: 15_000 });
  await expect(page.getByText(/^3 MB \//)).toBeVisible();
});
