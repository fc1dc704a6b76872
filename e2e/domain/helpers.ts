import { expect, type Page } from '@playwright/test';
import { loadConfig } from '../../apps/server/src/config/config.ts';
import { grant, parsePermissionMap } from '../../apps/server/src/modules/accounts/accounts.ts';
import { openStore } from '../../apps/server/src/store/db.ts';
import type { Account } from '../../apps/server/test/fixtures.ts';
import { createE2EAccount, signInContext } from '../support/accounts.ts';
import { E2E_DATA_DIR } from '../support/env.ts';

export const DOMAIN = 'dominio-e2e.com';

async function withStore<T>(run: (store: Awaited<ReturnType<typeof openStore>>) => Promise<T>) {
  const store = await openStore(loadConfig({ ATALAYA_DATA_DIR: E2E_DATA_DIR, DATABASE_URL: '' }));
  try {
    return await run(store);
  } finally {
    await store.destroy();
  }
}

/** The running server's store: a user's language, a change of grants behind the browser's back. */
export const setLanguage = (account: Account, username: string, language: string) =>
  withStore((store) => store.updateTable('user').set({ language }).where('id', '=', account.users[username]).execute());
export const regrant = (account: Account, username: string, map: string) =>
  withStore((store) => grant(store, account.realm, username, DOMAIN, parsePermissionMap(map)));

/** A realm with a writer (w) and a reader (r) of one domain with hosting; opens its domain page. */
export async function openDomain(page: Page, role: 'w' | 'r', language = 'es') {
  const account = await createE2EAccount({ users: { w: 'all=write', r: 'all=read' }, items: [{ reference: DOMAIN, domain: true, service: 'normal' }] });
  if (language !== 'es') await setLanguage(account, role, language);
  await signInContext(page.context(), account, role);
  await page.goto(`/admin/${account.items[DOMAIN]}/domain/`);
  await expect(page.getByRole('heading', { level: 1, name: DOMAIN })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('contact-registrant')).toBeVisible({ timeout: 15_000 });
  return account;
}
