import { expect, type Page } from '@playwright/test';
import { grant, parsePermissionMap } from '../../apps/server/src/modules/provisioning/accounts.ts';
import type { Account } from '../../apps/server/test/fixtures.ts';
import { createE2EAccount, setLanguage, signInContext, unique, withE2EStore } from '../support/accounts.ts';

export type DomainAccount = Account & { domain: string };

/** A change of grants behind the browser's back. */
export const regrant = (account: DomainAccount, username: string, map: string) =>
  withE2EStore((store) => grant(store, account.realm, username, account.domain, parsePermissionMap(map)));

/** A realm with a writer (w) and a reader (r) of one domain with hosting (a name of its own); opens its domain page. */
export async function openDomain(page: Page, role: 'w' | 'r', language = 'es'): Promise<DomainAccount> {
  const DOMAIN = unique('dominio-e2e.com');
  const created = await createE2EAccount({
    users: { w: 'all=write', r: 'all=read' },
    items: [{ reference: DOMAIN, domain: true, service: 'normal' }],
  });
  const account = Object.assign(created, { domain: DOMAIN });
  if (language !== 'es') await setLanguage(account, role, language);
  await signInContext(page.context(), account, role);
  await page.goto(`/admin/${account.items[DOMAIN]}/domain/`);
  await expect(page.getByRole('heading', { level: 1, name: DOMAIN })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('contact-registrant')).toBeVisible({ timeout: 15_000 });
  return account;
}
