import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { BATCH } from '../../src/http/turn.ts';
import { grant, parsePermissionMap } from '../../src/modules/provisioning/accounts.ts';
import { createSession } from '../../src/modules/session/sessions.ts';
import { now } from '../../src/store/db.ts';
import { type Account, createAccount } from '../fixtures.ts';
import { statementsOn } from '../statements.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

describeStores('sessions and permissions kept in memory on %s', (kind) => {
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

  it('keep each user’s map of each item apart, however often they are read', async () => {
    const two = await createAccount(ctx.store, {
      users: { w: 'all=write', r: 'all=read' },
      items: [
        { reference: 'a.es', domain: true },
        { reference: 'b.es', domain: true },
      ],
    });
    await grant(ctx.store, two.realm, 'r', 'b.es', parsePermissionMap('all=disabled'));
    const [w, r] = [await two.as('w'), await two.as('r')];
    const itemOf = async (headers: Record<string, string>, reference: string) =>
      (await ctx.app.inject({ method: 'POST', url: `/p247/permission/${two.items[reference]}/`, headers })).json();
    for (let round = 0; round < 2; round++) {
      expect((await itemOf(w, 'a.es')).data.permissions.domain).toBe('write');
      expect((await itemOf(r, 'a.es')).data.permissions.domain).toBe('read');
      expect((await itemOf(w, 'b.es')).data.permissions.domain).toBe('write');
      expect((await itemOf(r, 'b.es')).system.statusCode).toBe(404);
    }
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
    await ctx.store
      .updateTable('session')
      .set({ last_seen_at: Math.floor(later / 1000) })
      .where('user_id', '=', account.users.ana)
      .execute();
    vi.useFakeTimers({ toFake: ['Date'], now: later });
    try {
      expect(await permission(headers)).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('bump the auth version when an item gains or loses a domain, service or mail service, is renewed or changes kind, but not on usage figures', async () => {
    const shop = await createAccount(ctx.store, { users: {}, items: [{ reference: 'tienda.es', service: 'normal' }] });
    const item = shop.items['tienda.es'];
    const changes: [string, () => Promise<unknown>][] = [
      [
        'domain insert',
        () => ctx.store.insertInto('domain').values({ item_id: item, name: 'tienda.es', expire_at: 1, created_at: 1 }).execute(),
      ],
      ['domain renewal', () => ctx.store.updateTable('domain').set({ expire_at: 2 }).where('item_id', '=', item).execute()],
      ['domain delete', () => ctx.store.deleteFrom('domain').where('item_id', '=', item).execute()],
      ['service renewal', () => ctx.store.updateTable('service').set({ expire_at: 3 }).where('item_id', '=', item).execute()],
      ['service kind', () => ctx.store.updateTable('service').set({ kind: 'parking' }).where('item_id', '=', item).execute()],
    ];
    for (const [name, change] of changes) {
      const before = await version();
      await change();
      expect(await version(), name).toBeGreaterThan(before);
    }
    const before = await version();
    await ctx.store.updateTable('service').set({ usage_measured_at: now() }).where('item_id', '=', item).execute();
    expect(await version()).toBe(before);
  });

  /** How many times the store is asked for the auth version while `during` runs. */
  const versionReads = (during: () => Promise<unknown>) => statementsOn(ctx.store, 'auth_version', during);

  it('read the version once for a batch of requests that arrive in one turn of the event loop, and once more per further batch', async () => {
    const headers = await account.as('ana');
    expect(await permission(headers)).toBe(200);
    const turn = async (requests: number) => {
      let statuses: number[] = [];
      const reads = await versionReads(async () => {
        statuses = await Promise.all(Array.from({ length: requests }, () => permission(headers)));
      });
      expect(statuses).toEqual(Array(requests).fill(200));
      return reads;
    };
    expect(await turn(BATCH)).toBe(1);
    expect(await turn(BATCH + 1)).toBe(2);
  });

  it('answer the signed-out calls of one turn together once that turn’s I/O is done, reading no version', async () => {
    let turnEnded = false;
    setImmediate(() => {
      turnEnded = true;
    });
    const answered: boolean[] = [];
    const call = () =>
      ctx.app.inject({ method: 'GET', url: '/p247/config/get/', headers: { 'x-dd-request': '1' } }).then((response) => {
        expect(response.statusCode).toBe(200);
        answered.push(turnEnded);
      });
    const reads = await versionReads(() => Promise.all([call(), call(), call()]));
    expect(answered).toEqual([true, true, true]);
    expect(reads).toBe(0);
  });

  it('give a request that arrives once the turn’s read has started a read of its own', async () => {
    const first = ctx.app.authCache.sync();
    expect(ctx.app.authCache.sync()).toBe(first);
    let late: Promise<void> | undefined;
    // Queued after the cache's own: runs once the turn's read has started (on PostgreSQL, while it is on its way).
    setImmediate(() => {
      late = ctx.app.authCache.sync();
    });
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(late).toBeDefined();
    expect(late).not.toBe(first);
    await late;
  });

  it('keep no failed read: the same key is read again, and a read that succeeds is kept', async () => {
    let reads = 0;
    const failing = () => {
      reads++;
      return Promise.reject(new Error('the store was busy'));
    };
    const key = `test:failing:${kind}`;
    await expect(ctx.app.authCache.remember(key, failing)).rejects.toThrow('the store was busy');
    const answer = () => {
      reads++;
      return Promise.resolve('read');
    };
    expect(await ctx.app.authCache.remember(key, answer)).toBe('read');
    expect(await ctx.app.authCache.remember(key, answer)).toBe('read');
    expect(reads).toBe(2);
  });

  it('keep what it remembers frozen all the way down, since every request that asks shares it', async () => {
    const kept = await ctx.app.authCache.remember(`test:frozen:${kind}`, async () => ({
      servers: ['ns1.example.net'],
      contact: { email: 'a@example.com' },
    }));
    expect(() => kept.servers.push('ns2.example.net')).toThrow(TypeError);
    expect(() => {
      kept.contact.email = 'b@example.com';
    }).toThrow(TypeError);
    expect(kept).toEqual({ servers: ['ns1.example.net'], contact: { email: 'a@example.com' } });
  });

  it('answer user/info and permission/list from memory, and anew after a change another process made', async () => {
    const headers = await account.as('ana');
    const call = async (method: 'GET' | 'POST', url: string) => (await ctx.app.inject({ method, url, headers })).json().data;
    const expiry = async () => (await call('GET', '/p247/permission/list/')).find((row: { id: number }) => row.id === id).domainExpireTS;
    expect((await call('POST', '/p247/user/info/')).name).not.toBe('Ana Cache');
    const first = await expiry();
    expect(await expiry()).toBe(first); // served from memory now
    await ctx.store.updateTable('user').set({ name: 'Ana Cache' }).where('id', '=', account.users.ana).execute();
    await ctx.store
      .updateTable('domain')
      .set({ expire_at: first + 86_400 })
      .where('item_id', '=', id)
      .execute();
    expect((await call('POST', '/p247/user/info/')).name).toBe('Ana Cache');
    expect(await expiry()).toBe(first + 86_400);
  });
});
