import { type Account, createAccount, formHeaders } from '../fixtures.ts';
import { openTestApp, type TestContext } from '../stores.ts';

export type Fields = Record<string, string | string[]>;

/** URL-encoded like the SPA sends it: arrays as repeated `name[]` fields. */
export function encode(fields: Fields): string {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (Array.isArray(value)) for (const v of value) body.append(`${key}[]`, v);
    else body.append(key, value);
  }
  return body.toString();
}

// biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely and assert their shape.
type Body = any;

export interface DomainTest {
  ctx: TestContext;
  account: Account;
  /** A second realm, whose items the first realm's users must never reach. */
  other: Account;
  get(url: string, user?: string | null): Promise<{ status: number; body: Body }>;
  post(url: string, fields: Fields, user?: string | null): Promise<{ status: number; body: Body }>;
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
    async get(url, user) {
      const res = await ctx.app.inject({ method: 'GET', url: `/p247${url}`, headers: await as(user) });
      return { status: res.statusCode, body: res.json() };
    },
    async post(url, fields, user) {
      const res = await ctx.app.inject({ method: 'POST', url: `/p247${url}`, headers: formHeaders(await as(user)), payload: encode(fields) });
      return { status: res.statusCode, body: res.json() };
    },
    id: (reference) => account.items[reference] ?? other.items[reference],
    close: () => ctx.close(),
  };
}

/** The field names and messages of a refused answer, paired. */
export const fieldErrors = (body: { system: { inputs: string[]; errors: string[] } }) =>
  Object.fromEntries(body.system.inputs.map((input, i) => [input, body.system.errors[i]]));
