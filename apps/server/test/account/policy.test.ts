import type { Area } from '@atalaya/contract';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiError } from '../../src/http/errors.ts';
import { accessFor } from '../../src/modules/permission/access.ts';
import type { SessionUser } from '../../src/modules/permission/caller.ts';
import { loadItemAccess } from '../../src/modules/permission/policy.ts';
import { type Account, createAccount } from '../fixtures.ts';
import { describeStores, openTestStore } from '../stores.ts';

/** The one place of per-item authorisation, called directly: what a route's own checks cannot hide. */
describeStores('the permission policy on %s', (kind) => {
  let ctx: Awaited<ReturnType<typeof openTestStore>>;
  let acc: Account;
  let other: Account;
  beforeAll(async () => {
    ctx = await openTestStore(kind);
    acc = await createAccount(ctx.store, {
      users: { w: 'all=write', r: 'all=read', dns: 'service_dnszone=write', none: 'all=disabled' },
      items: [
        { reference: 'uno.es', domain: true, service: 'normal' },
        { reference: 'dos.es', domain: true },
      ],
    });
    other = await createAccount(ctx.store, { users: { eve: 'all=write' }, items: [{ reference: 'eve.es', domain: true }] });
  });
  afterAll(() => ctx.cleanup());

  const userOf = async (account: Account, username: string): Promise<SessionUser> => {
    const realm = await ctx.store.selectFrom('realm').select('id').where('name', '=', account.realm).executeTakeFirstOrThrow();
    return {
      id: account.users[username],
      realmId: realm.id,
      realmName: account.realm,
      username,
      language: 'es',
      theme: 'system',
      color: 'indigo',
      sessionId: 'x',
      mustEnrol: false,
    };
  };
  /** A request as the guard leaves it: the user (or none) and the cache that loads permission maps. */
  const requestOf = (user: SessionUser | null, id: number) =>
    ({
      user,
      params: { id: String(id) },
      server: { authCache: { itemAccess: (u: SessionUser, i: number) => loadItemAccess(ctx.store, u, i) }, runtime: { store: ctx.store } },
    }) as unknown as FastifyRequest;
  const authorize = (request: FastifyRequest, area: Area, level: 'read' | 'write') => accessFor(request, { area, level });
  const statusOf = async (promise: Promise<unknown>) => {
    try {
      await promise;
      return 200;
    } catch (error) {
      if (error instanceof ApiError) return error.status;
      throw error;
    }
  };

  it('loads the map of an item of the user’s realm, with its id and reference', async () => {
    const access = await loadItemAccess(ctx.store, await userOf(acc, 'dns'), acc.items['uno.es']);
    expect(access).toEqual({ itemId: acc.items['uno.es'], reference: 'uno.es', permissions: { service_dnszone: 'write' } });
    const reader = await loadItemAccess(ctx.store, await userOf(acc, 'r'), acc.items['dos.es']);
    expect(reader?.permissions.domain).toBe('read');
  });

  it('loads nothing for an impossible id, another realm’s item, or an item with every area disabled', async () => {
    const w = await userOf(acc, 'w');
    for (const id of [0, -1, 1.5, 2_147_483_648, Number.NaN]) expect(await loadItemAccess(ctx.store, w, id), String(id)).toBeNull();
    expect(await loadItemAccess(ctx.store, w, other.items['eve.es'])).toBeNull();
    expect(await loadItemAccess(ctx.store, await userOf(other, 'eve'), acc.items['uno.es'])).toBeNull();
    expect(await loadItemAccess(ctx.store, await userOf(acc, 'none'), acc.items['uno.es'])).toBeNull();
    expect(await loadItemAccess(ctx.store, w, 999_999)).toBeNull();
  });

  it('ignores a stored area the panel does not know', async () => {
    const none = await userOf(acc, 'none');
    await ctx.store
      .insertInto('permission')
      .values({ user_id: none.id, item_id: acc.items['dos.es'], area: 'root', level: 'write' })
      .execute();
    expect(await loadItemAccess(ctx.store, none, acc.items['dos.es'])).toBeNull();
  });

  it('answers 404 without a user or without sight of the area, 403 for writing with read only, and the access otherwise', async () => {
    const uno = acc.items['uno.es'];
    expect(await statusOf(authorize(requestOf(null, uno), 'domain', 'read'))).toBe(404);
    expect(await statusOf(authorize(requestOf(await userOf(acc, 'dns'), uno), 'domain', 'read'))).toBe(404);
    expect(await statusOf(authorize(requestOf(await userOf(other, 'eve'), uno), 'domain', 'read'))).toBe(404);
    expect(await statusOf(authorize(requestOf(await userOf(acc, 'r'), uno), 'domain', 'write'))).toBe(403);
    expect(await statusOf(authorize(requestOf(await userOf(acc, 'r'), uno), 'domain', 'read'))).toBe(200);
    expect(await authorize(requestOf(await userOf(acc, 'dns'), uno), 'service_dnszone', 'write')).toMatchObject({ itemId: uno });
  });
});
