import { randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { createE2EAccount } from '../support/accounts.ts';

/** An isolated realm with one hosting+mail service; `admin` writes everything, `viewer` only reads. */
export async function hostingAccount() {
  const reference = `e2e${randomBytes(3).toString('hex')}.test`;
  const account = await createE2EAccount({
    users: { admin: 'all=write', viewer: 'all=read' },
    items: [{ reference, domain: true, service: 'normal', mail: true }],
  });
  return { account, reference, id: account.items[reference] };
}

/** Opens a row's menu (by its visible name) and picks an action. */
export async function rowAction(page: Page, name: string, action: string | RegExp) {
  await page.getByRole('button', { name: new RegExp(`(Acciones de|Actions for) ${name.replace(/\./g, '\\.')}`) }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

/** A success toast with the server's first info message. */
export const toast = (page: Page, text: string | RegExp) => expect(page.getByText(text).first()).toBeVisible();

/** The dialog currently open. */
export const dialog = (page: Page) => page.getByRole('dialog');
