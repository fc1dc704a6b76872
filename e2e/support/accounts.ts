import type { BrowserContext } from '@playwright/test';
import { loadConfig } from '../../apps/server/src/config/config.ts';
import { createSession, deleteUserSessions, SESSION_COOKIE } from '../../apps/server/src/modules/session/sessions.ts';
import { openStore } from '../../apps/server/src/store/db.ts';
import { type Account, type AccountSpec, createAccount } from '../../apps/server/test/fixtures.ts';
import { E2E_DATA_DIR } from './env.ts';

export { TEST_PASSWORD } from '../../apps/server/test/fixtures.ts';

/** An isolated realm in the running server's store, so specs never step on each other. */
export async function createE2EAccount(spec: AccountSpec): Promise<Account> {
  const store = await openStore(loadConfig({ ATALAYA_DATA_DIR: E2E_DATA_DIR, DATABASE_URL: '' }));
  try {
    return await createAccount(store, spec);
  } finally {
    await store.destroy();
  }
}

/** Puts a live session for the user into the browser context: for specs that are not about sign-in. */
export async function signInContext(context: BrowserContext, account: Account, username: string) {
  const store = await openStore(loadConfig({ ATALAYA_DATA_DIR: E2E_DATA_DIR, DATABASE_URL: '' }));
  try {
    const token = await createSession(store, account.users[username]);
    await context.addCookies([{ name: SESSION_COOKIE, value: token, domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Strict' }]);
  } finally {
    await store.destroy();
  }
}

/** Ends every session of a user, as an idle time-out would: the next call answers status 101. */
export async function endSessions(account: Account, username: string) {
  const store = await openStore(loadConfig({ ATALAYA_DATA_DIR: E2E_DATA_DIR, DATABASE_URL: '' }));
  try {
    await deleteUserSessions(store, account.users[username]);
  } finally {
    await store.destroy();
  }
}
