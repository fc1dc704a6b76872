import type { Envelope } from '@atalaya/contract';
import { type Account, createAccount, formHeaders } from '../fixtures.ts';
import type { TestContext } from '../stores.ts';

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
    await ctx.store.updateTable('service').set({ limit_databases: limits.databases }).where('item_id', '=', account.items['tienda.test']).execute();
  }
  if (limits.mailAccounts !== undefined) {
    await ctx.store.updateTable('mail_service').set({ limit_accounts: limits.mailAccounts }).where('item_id', '=', account.items['tienda.test']).execute();
  }
  return account;
}

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: Envelope<T>;
  headers: Record<string, unknown>;
  raw: string;
}

/** One API call as a user; a body makes it a URL-encoded POST. */
export async function api<T = Record<string, unknown>>(
  ctx: TestContext,
  account: Account,
  user: string,
  url: string,
  form?: Record<string, string>,
): Promise<Answer<T>> {
  const headers = await account.as(user);
  const response = await ctx.app.inject({
    method: form ? 'POST' : 'GET',
    url: `/p247${url}`,
    headers: form ? formHeaders(headers) : headers,
    payload: form ? new URLSearchParams(form).toString() : undefined,
  });
  const isJson = String(response.headers['content-type'] ?? '').startsWith('application/json');
  return { status: response.statusCode, body: isJson ? response.json() : (undefined as never), headers: response.headers, raw: response.body };
}

export const jobStatus = async (ctx: TestContext, id: number | null) =>
  id === null ? null : (await ctx.store.selectFrom('job').select('status').where('id', '=', id).executeTakeFirst())?.status;

export const localObject = async (ctx: TestContext, driver: string, key: string) => {
  const row = await ctx.store.selectFrom('local_backend').select('data').where('driver', '=', driver).where('key', '=', key).executeTakeFirst();
  return row ? JSON.parse(row.data) : undefined;
};
