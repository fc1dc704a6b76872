import path from 'node:path';
import type { Envelope } from '@atalaya/contract';
import { type Account, createAccount } from '../fixtures.ts';
import { api } from '../service/helpers.ts';
import { multipart } from '../sites/helpers.ts';
import { openTestApp, type TestContext } from '../stores.ts';
import type { NginxHarness } from './harness/nginx.ts';
import { exec } from './http.ts';

/**
 * The app as a provider runs it with real backends: the API, the outbox and the drivers that
 * `config.drivers` selects, over a fresh SQLite store. Only the store and the harness's daemon are
 * the test's; every change goes through the same calls the SPA makes.
 */
export interface RealApp {
  ctx: TestContext;
  account: Account;
  /** The hosting (and mail) service every test works on. */
  id: number;
  /** A call as the account's writing user: GET, or a URL-encoded POST when `form` is given. */
  call<T = Record<string, unknown>>(url: string, form?: Record<string, string>): Promise<{ status: number; body: Envelope<T> }>;
  /** A multipart POST with PEM files, as the SPA uploads certificates. */
  upload<T = Record<string, unknown>>(
    url: string,
    fields: Record<string, string>,
    files: Record<string, string>,
  ): Promise<{ status: number; body: Envelope<T> }>;
  /** Runs every due outbox job, as the server's worker would. */
  drain(): Promise<void>;
  /** Makes retries due now, as if their back-off had passed, then drains. */
  retry(): Promise<void>;
  /** The status of a job as the store holds it. */
  jobStatus(job: number | null | undefined): Promise<string | undefined>;
  close(): Promise<void>;
}

export const REFERENCE = 'tienda.test';

/**
 * Config overrides that point the app's nginx drivers at a harness's nginx. Decision 008 lets the
 * options sit in one area with just the driver's name in the other; the panel's web root is the
 * parent of the harness's per-service roots.
 */
export function nginxOverrides(h: { dir: string; options: Record<string, unknown> }): Record<string, unknown> {
  const { webRoot: _perService, ...nginx } = h.options;
  return {
    'drivers.sites': { driver: 'nginx', ...nginx },
    'drivers.web': { driver: 'nginx' },
    'hosting.webRoot': path.join(h.dir, 'www'),
  };
}

export async function openRealApp(overrides: Record<string, unknown>): Promise<RealApp> {
  const ctx = await openTestApp('sqlite', overrides);
  const account = await createAccount(ctx.store, {
    users: { owner: 'all=write' },
    items: [{ reference: REFERENCE, service: 'normal', mail: true }],
  });
  const drain = () => ctx.app.runtime.outbox.drain();
  return {
    ctx,
    account,
    id: account.items[REFERENCE]!,
    call: async (url, form) => {
      const { status, body } = await api(ctx, account, 'owner', url, form);
      return { status, body: body as never };
    },
    async upload(url, fields, files) {
      const { payload, contentType } = multipart(fields, files);
      const headers = { ...(await account.as('owner')), 'content-type': contentType };
      const response = await ctx.app.inject({ method: 'POST', url: `/p247${url}`, headers, payload });
      return { status: response.statusCode, body: response.json() };
    },
    drain,
    async retry() {
      await ctx.store.updateTable('job').set({ next_at: 0 }).where('status', '=', 'pending').execute();
      await drain();
    },
    async jobStatus(job) {
      if (!job) return undefined;
      return (await ctx.store.selectFrom('job').select('status').where('id', '=', job).executeTakeFirst())?.status;
    },
    close: () => ctx.close(),
  };
}

/** The CA the sites suites' test certificates chain to, written in the harness's folder. */
export const testCaFile = (h: NginxHarness) => path.join(h.dir, 'test-ca.pem');

/** curl over TLS to `host` on the harness's nginx, trusting the test CA alone. */
export const curlTls = (h: NginxHarness, host: string, pathname = '/', options: string[] = []) =>
  exec('/usr/bin/curl', [
    '-sS',
    '--max-time',
    '10',
    ...options,
    '--cacert',
    testCaFile(h),
    '--resolve',
    `${host}:${h.httpsPort}:127.0.0.1`,
    `https://${host}:${h.httpsPort}${pathname}`,
  ]);
