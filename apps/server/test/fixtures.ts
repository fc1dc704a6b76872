import { randomBytes } from 'node:crypto';
import type { PermissionMap } from '@atalaya/contract';
import { createItem, createRealm, createUser, grant, type ItemSpec, parsePermissionMap } from '../src/modules/accounts/accounts.ts';
import { createSession, SESSION_COOKIE } from '../src/modules/session/sessions.ts';
import type { Store } from '../src/store/db.ts';

export const TEST_PASSWORD = 'test-password-1';

export interface AccountSpec {
  /** Users and their grants: `all=write`, `all=read,domain_authcode=disabled`, or a map. */
  users: Record<string, string | PermissionMap>;
  items: Omit<ItemSpec, 'realm'>[];
}

export interface Account {
  realm: string;
  items: Record<string, number>;
  users: Record<string, number>;
  /** Headers of a call made by a signed-in user from the SPA: session cookie plus the CSRF header. */
  as(username: string): Promise<Record<string, string>>;
}

/** An isolated realm (random name) with its users, items and grants, built through the CLI's own code. */
export async function createAccount(store: Store, spec: AccountSpec): Promise<Account> {
  const realm = `r${randomBytes(5).toString('hex')}.test`;
  await createRealm(store, realm);
  const items: Record<string, number> = {};
  for (const item of spec.items) items[item.reference] = (await createItem(store, { ...item, realm })).id;
  const users: Record<string, number> = {};
  for (const [username, grants] of Object.entries(spec.users)) {
    users[username] = (await createUser(store, realm, username, TEST_PASSWORD)).id;
    const map = typeof grants === 'string' ? parsePermissionMap(grants) : grants;
    for (const reference of Object.keys(items)) await grant(store, realm, username, reference, map);
  }
  return {
    realm,
    items,
    users,
    async as(username) {
      const token = await createSession(store, users[username]);
      return { cookie: `${SESSION_COOKIE}=${token}`, 'x-dd-request': '1' };
    },
  };
}

/** The usual URL-encoded form headers on top of a user's headers. */
export const formHeaders = (headers: Record<string, string>) => ({ ...headers, 'content-type': 'application/x-www-form-urlencoded' });
