import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { grant, parsePermissionMap } from '../../src/modules/accounts/accounts.ts';
import { createSession } from '../../src/modules/session/sessions.ts';
import { now } from '../../src/store/db.ts';
import { type Account, createAccount } from '../fixtures.ts';
import { openTestApp, STORE_KINDS, type TestContext } from '../stores.ts';

describe.each(STORE_KINDS)('sessions and permissions kept in memory on %s', (kind) => {
  let ctx: TestContext;
  let account: Account;
  let id: number;
  beforeAll(async () => {
    ctx = await openTestApp(kind);
    account = await createAccount(ctx.store, { users: { ana: 'all=write' }, items: [{ reference: 'cache.es', domain: true }] });
    id = account.items['cache.es'];
  });
  afterAll(() => ctx.close());

  const version = async () => Number((await ctx.store.selectFrom('auth_version').select('version').executeTakeFirstOrThrow()).version);
  const permission = async (headers: Record<string, string>) =>
    (await ctx.app.inject({ method: 'POST', url: `/p247/permission/${id}/`, headers })).json().system.statusCode;

  it('bump the store’s auth version on any change to sessions, users, realms, items or permissions, but not on a touch', async () => {
    const changes: [string, () => Promise<unknown>][] = [
      ['session insert', () => createSession(ctx.store, account.users.ana)],
      ['permission', () => grant(ctx.store, account.realm, 'ana', 'cache.es', { domain_dns: 'read' })],
      ['user', () => ctx.store.updateTable('user').set({ theme: 'dark' }).where('id', '=', account.users.ana).execute()],
      ['realm', () => ctx.store.updateTable('realm').set({ disabled: 0 }).where('name', '=', account.realm).execute()],
      ['item', () => ctx.store.updateTable('item').set({ reference: 'cache.es' }).where('id', '=', id).execute()],
      ['session delete', () => ctx.store.deleteFrom('session').where('user_id', '=', account.users.ana).execute()],
    ];
    for (const [name, change] of changes) {
      const before = await version();
      await change();
      expect(await version(), name).toBeGreaterThan(before);
    }
    const before = await version();
    await ctx.store.updateTable('session').set({ last_seen_at: now() }).execute();
    expect(await version()).toBe(before);
  });

  it('apply a revocation made by another process on the very next request, though the map was cached', async () => {
    const headers = await account.as('ana');
    expect(await permission(headers)).toBe(200);
    expect(await permission(headers)).toBe(200); // served from memory now
    await grant(ctx.store, account.realm, 'ana', 'cache.es', parsePermissionMap('all=disabled'));
    expect(await permission(headers)).toBe(404);
    await grant(ctx.store, account.realm, 'ana', 'cache.es', { domain: 'write' });
    expect(await permission(headers)).toBe(200);
  });

  it('end a session deleted by another process on the very next request', async () => {
    const headers = await account.as('ana');
    expect(await permission(headers)).toBe(200);
    await ctx.store.deleteFrom('session').where('user_id', '=', account.users.ana).execute();
    expect(await permission(headers)).toBe(101);
  });

  it('keep a session that another process kept alive, though the copy in memory looks idle', async () => {
    const headers = await account.as('ana');
    expect(await permission(headers)).toBe(200);
    const later = Date.now() + 31 * 60 * 1000;
    await ctx.store.updateTable('session').set({ last_seen_at: Math.floor(later / 1000) }).where('user_id', '=', account.users.ana).execute();
    vi.useFakeTimers({ toFake: ['Date'], now: later });
    try {
      expect(await permission(headers)).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});
