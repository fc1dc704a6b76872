import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Account, createAccount, type Loose } from '../fixtures.ts';
import { api } from '../service/helpers.ts';
import type { TestContext } from '../stores.ts';

const run = promisify(execFile);

/** A realm with two hosting services and users at each level of service_backups; its web root holds a few files. */
export async function backupAccount(ctx: TestContext) {
  const account = await createAccount(ctx.store, {
    users: {
      admin: 'all=write',
      viewer: 'all=read',
      hidden: 'all=write,service_backups=disabled',
    },
    items: [
      { reference: 'tienda.test', domain: true, service: 'normal', mail: true },
      { reference: 'otra.test', service: 'normal' },
    ],
  });
  return account;
}

/** The service's web root as the local drivers keep it: the data dir's `www/<reference>/`. */
export const webRoot = (ctx: TestContext, reference: string) => path.join(ctx.config.dataDir, 'www', reference);

/** Writes files under a service's web root (folders made as needed). */
export function writeWeb(ctx: TestContext, reference: string, files: Record<string, string | Buffer>) {
  for (const [name, body] of Object.entries(files)) {
    const file = path.join(webRoot(ctx, reference), name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, body);
  }
}

/** Runs the worker until no job is due, making the back-off of retried jobs due at once (a failing repository's retries). */
export async function drainAll(ctx: TestContext, rounds = 5) {
  for (let i = 0; i < rounds; i++) {
    await ctx.app.runtime.outbox.drain();
    const waiting = await ctx.store.selectFrom('job').select('id').where('status', '=', 'pending').execute();
    if (waiting.length === 0) return;
    await ctx.store.updateTable('job').set({ next_at: 0 }).where('status', '=', 'pending').execute();
  }
}

/** `restic` itself on a repository, with the key given as the environment says (never on the command line). */
export async function restic(repository: string, password: string, args: string[]) {
  const { stdout } = await run('/usr/bin/restic', ['-r', repository, '--no-cache', ...args], {
    env: { ...process.env, RESTIC_PASSWORD: password },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

export type { Account };

/** One API call as a user, its answer read loosely (the assertions say its shape). */
export const call = (ctx: TestContext, account: Account, user: string, url: string, form?: Record<string, string>) =>
  api<Loose>(ctx, account, user, url, form);
