import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { BrowserContext } from '@playwright/test';
import { loadConfig } from '../../apps/server/src/config/config.ts';
import { createLocalRegistry } from '../../apps/server/src/drivers/registry/local.ts';
import { defaultRegistration } from '../../apps/server/src/modules/domain/defaults.ts';
import { createSession, deleteUserSessions, SESSION_COOKIE } from '../../apps/server/src/modules/session/sessions.ts';
import { createSecrets, sealingKey } from '../../apps/server/src/secrets.ts';
import { openStore, type Store } from '../../apps/server/src/store/db.ts';
import { type Account, type AccountSpec, createAccount } from '../../apps/server/test/fixtures.ts';
import { E2E_DATA_DIR } from './env.ts';

export { TEST_PASSWORD } from '../../apps/server/test/fixtures.ts';

const e2eConfig = () => loadConfig({ ATALAYA_DATA_DIR: E2E_DATA_DIR, DATABASE_URL: '' });

/** Opens the running server's store for one piece of set-up, as a second process would. */
export async function withE2EStore<T>(work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(e2eConfig());
  try {
    return await work(store);
  } finally {
    await store.destroy();
  }
}

/**
 * A name of this test's own: `tienda.es` becomes `tienda-3f9a1c.es`. A name has one owner in the
 * whole installation, and every test (and every retry) builds its own realm in the one store.
 */
export const unique = (name: string) => name.replace(/^[^.]+/, (label) => `${label}-${randomBytes(3).toString('hex')}`);

/**
 * An isolated realm in the running server's store, so specs never step on each other. Its domains
 * are registered at the server's (local) registry, as the operator's `item-create --register`
 * would (decision 051); `unregistered` leaves them as the panel got them, not registered yet.
 */
export const createE2EAccount = (spec: AccountSpec, { unregistered = false } = {}): Promise<Account> =>
  withE2EStore(async (store) => {
    const account = await createAccount(store, spec);
    if (unregistered) return account;
    const config = e2eConfig();
    const registry = createLocalRegistry(store, createSecrets(sealingKey(config)));
    for (const item of spec.items.filter((i) => i.domain && !i.transferIn)) {
      const itemId = account.items[item.reference];
      await registry.create(itemId, await defaultRegistration({ store, config }, itemId, item.reference, account.realm));
    }
    return account;
  });

/** Puts a live session for the user into the browser context: for specs that are not about sign-in. */
export async function signInContext(context: BrowserContext, account: Account, username: string) {
  const token = await withE2EStore((store) => createSession(store, account.users[username]));
  await context.addCookies([{ name: SESSION_COOKIE, value: token, domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Strict' }]);
}

/** Ends every session of a user, as an idle time-out would: the next call answers status 101. */
export const endSessions = (account: Account, username: string) =>
  withE2EStore((store) => deleteUserSessions(store, account.users[username]));

/** The language a user saved, as if chosen in another browser. */
export const setLanguage = (account: Account, username: string, language: string) =>
  withE2EStore((store) => store.updateTable('user').set({ language }).where('id', '=', account.users[username]).execute());

/**
 * Marks a job as failed for good, as eight refusals of its server would: the one given by id, or
 * the latest job of that kind for the item (and payload, when given).
 */
export const failJob = (job: number | { itemId: number; kind: string; payload?: object }, lastError: string) =>
  withE2EStore(async (store) => {
    const id =
      typeof job === 'number'
        ? job
        : (
            await store
              .selectFrom('job')
              .select('id')
              .where('item_id', '=', job.itemId)
              .where('kind', '=', job.kind)
              .$if(job.payload !== undefined, (q) => q.where('payload', '=', JSON.stringify(job.payload)))
              .orderBy('id', 'desc')
              .executeTakeFirstOrThrow()
          ).id;
    await store.updateTable('job').set({ status: 'failed', attempts: 8, last_error: lastError }).where('id', '=', id).execute();
  });

/** Runs the operator's admin CLI (`npm run admin -- …`) against the running server's store. */
export function admin(...args: string[]) {
  const result = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', 'apps/server/src/cli/main.ts', ...args], {
    env: { ...process.env, ATALAYA_DATA_DIR: E2E_DATA_DIR, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`admin ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}
