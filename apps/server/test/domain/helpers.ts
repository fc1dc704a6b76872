import { type Account, createAccount, type Fields, type Reply, send } from '../fixtures.ts';
import { openTestApp, type TestContext } from '../stores.ts';

export type { Fields };

export interface DomainTest {
  ctx: TestContext;
  account: Account;
  /** A second realm, whose items the first realm's users must never reach. */
  other: Account;
  get(url: string, user?: string | null): Promise<Reply>;
  post(url: string, fields: Fields, user?: string | null): Promise<Reply>;
  id(reference: string): number;
  close(): Promise<void>;
}

/**
 * An app with a realm holding x.es (domain + hosting), y.com (domain only), z.eu (domain only)
 * and m.com (mail only); users w (write all), r (read all), d (domain only, read).
 */
export async function openDomainTest(kind: 'sqlite' | 'postgres'): Promise<DomainTest> {
  const ctx = await openTestApp(kind);
  const account = await createAccount(ctx.store, {
    users: { w: 'all=write', r: 'all=read', d: 'domain=read' },
    items: [
      { reference: 'x.es', domain: true, service: 'normal' },
      { reference: 'y.com', domain: true },
      { reference: 'z.eu', domain: true },
      { reference: 'm.com', mail: true },
    ],
  });
  const other = await createAccount(ctx.store, { users: { o: 'all=write' }, items: [{ reference: 'other.com', domain: true }] });
  const headers = new Map<string, Record<string, string>>();
  const as = async (user: string | null | undefined) => {
    if (user === null) return { 'x-dd-request': '1' };
    const name = user ?? 'w';
    if (!headers.has(name)) headers.set(name, await account.as(name));
    return headers.get(name)!;
  };
  return {
    ctx,
    account,
    other,
    get: async (url, user) => send(ctx.app, 'GET', url, await as(user)),
    post: async (url, fields, user) => send(ctx.app, 'POST', url, await as(user), fields),
    id: (reference) => account.items[reference] ?? other.items[reference],
    close: () => ctx.close(),
  };
}

/** The field names and messages of a refused answer, paired. */
export const fieldErrors = (body: { system: { inputs: string[]; errors: string[] } }) =>
  Object.fromEntries(body.system.inputs.map((input, i) => [input, body.system.errors[i]]));
