import { randomBytes } from 'node:crypto';
import type { Envelope, PermissionMap } from '@atalaya/contract';
import { defaultRegistration } from '../src/modules/domain/defaults.ts';
import { createItem, createRealm, createUser, grant, type ItemSpec, parsePermissionMap } from '../src/modules/provisioning/accounts.ts';
import { createSession, SESSION_COOKIE } from '../src/modules/session/sessions.ts';
import { createToken } from '../src/modules/token/tokens.ts';
import type { Store } from '../src/store/db.ts';
import type { TestContext } from './stores.ts';

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

/**
 * Registers the account's domains at the app's registry with the default contacts, as the
 * operator's `item-create --register` does (decision 051), keeping each item's expiry: a domain
 * is registered only when asked, and a test of a registered domain starts here. A domain waiting
 * for its transfer in is left as it is.
 */
export async function registerDomains(app: TestContext['app'], account: Account, which: (reference: string) => boolean = () => true) {
  const { store, drivers } = app.runtime;
  for (const [reference, itemId] of Object.entries(account.items)) {
    if (!which(reference)) continue;
    const domain = await store.selectFrom('domain').select('transfer_in').where('item_id', '=', itemId).executeTakeFirst();
    if (!domain || domain.transfer_in === 1) continue;
    await drivers.registry.create(itemId, await defaultRegistration(app.runtime, itemId, reference, account.realm));
  }
}

/** The headers of a call with a new API token of the user's, of that scope (`all=read`, `domain=write`…) over all its items. */
export async function bearerOf(store: Store, userId: number, scope: string) {
  const made = await createToken(store, userId, { name: scope, scope: parsePermissionMap(scope), items: null, cidrs: [], expiresAt: null });
  return { authorization: `Bearer ${made.token}` };
}

/** The usual URL-encoded form headers on top of a user's headers. */
export const formHeaders = (headers: Record<string, string>) => ({ ...headers, 'content-type': 'application/x-www-form-urlencoded' });

export type Fields = Record<string, string | number | (string | number)[]>;

/** URL-encoded like the SPA sends it: arrays as repeated `name[]` fields. */
export function encode(fields: Fields): string {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (Array.isArray(value)) for (const v of value) body.append(`${key}[]`, String(v));
    else body.append(key, String(value));
  }
  return body.toString();
}

// biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely and assert their shape.
export type Loose = any;

export interface Reply<T = Loose> {
  status: number;
  /** The parsed envelope (undefined when the answer is not JSON, e.g. a file). */
  body: Envelope<T>;
  headers: Record<string, unknown>;
  raw: string;
}

/**
 * The one way the API tests call the app: `url` under /p247, the caller's headers, and fields
 * sent URL-encoded (a POST) when given. Every area's helper is a thin layer over it.
 */
export async function send<T = Loose>(
  app: TestContext['app'],
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
  fields?: Fields,
): Promise<Reply<T>> {
  const response = await app.inject({
    method,
    url: `/p247${url}`,
    headers: fields ? formHeaders(headers) : headers,
    payload: fields ? encode(fields) : undefined,
  });
  const isJson = String(response.headers['content-type'] ?? '').startsWith('application/json');
  return {
    status: response.statusCode,
    body: isJson ? response.json() : (undefined as never),
    headers: response.headers,
    raw: response.body,
  };
}
