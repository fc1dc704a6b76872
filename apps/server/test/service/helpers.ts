import { type Account, createAccount, type Reply, send } from '../fixtures.ts';
import { openTestApp, type StoreKind, type TestContext } from '../stores.ts';

/** A realm with a hosting+mail service, a second service and a parking service, and users of every kind. */
export async function serviceAccount(ctx: TestContext, limits: { databases?: number; mailAccounts?: number } = {}) {
  const account = await createAccount(ctx.store, {
    users: {
      admin: 'all=write',
      reader: 'all=read',
      nothing: 'all=disabled',
      mailonly: 'servicemail=write,servicemail_accounts=write,servicemail_alias=write',
      noalias: 'servicemail=write,servicemail_accounts=write,servicemail_alias=disabled',
      ftponly: 'service_ftp=write',
      noparking: 'all=write,service_parking=read',
    },
    items: [
      { reference: 'tienda.test', domain: true, service: 'normal', mail: true },
      { reference: 'otra.test', service: 'normal', mail: true },
      { reference: 'aparcado.test', service: 'parking' },
    ],
  });
  if (limits.databases !== undefined) {
    await ctx.store
      .updateTable('service')
      .set({ limit_databases: limits.databases })
      .where('item_id', '=', account.items['tienda.test'])
      .execute();
  }
  if (limits.mailAccounts !== undefined) {
    await ctx.store
      .updateTable('mail_service')
      .set({ limit_accounts: limits.mailAccounts })
      .where('item_id', '=', account.items['tienda.test'])
      .execute();
  }
  return account;
}

/** An answer with its envelope typed as the caller expects. */
export type Answer<T = Record<string, unknown>> = Reply<T>;

/** One API call as a user; a body makes it a URL-encoded POST. */
export const api = async <T = Record<string, unknown>>(
  ctx: TestContext,
  account: Account,
  user: string,
  url: string,
  form?: Record<string, string>,
) => send<T>(ctx.app, form ? 'POST' : 'GET', url, await account.as(user), form);

export const jobStatus = async (ctx: TestContext, id: number | null) =>
  id === null ? null : (await ctx.store.selectFrom('job').select('status').where('id', '=', id).executeTakeFirst())?.status;

export const localObject = async (ctx: TestContext, driver: string, key: string) => {
  const row = await ctx.store
    .selectFrom('local_backend')
    .select('data')
    .where('driver', '=', driver)
    .where('key', '=', key)
    .executeTakeFirst();
  return row ? JSON.parse(row.data) : undefined;
};

/** What a service suite works with: its app, the service realm, and the id of its first item. */
export interface ServiceSuite {
  ctx: TestContext;
  acc: Account;
  id: number;
}

/** Opens an app on `kind` with `serviceAccount` in it, for a suite's `beforeAll`. */
export async function openServiceSuite(kind: StoreKind, limits: Parameters<typeof serviceAccount>[1] = {}): Promise<ServiceSuite> {
  const ctx = await openTestApp(kind);
  const acc = await serviceAccount(ctx, limits);
  return { ctx, acc, id: acc.items['tienda.test'] };
}
