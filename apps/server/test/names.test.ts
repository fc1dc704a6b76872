import type { DatabaseView } from '@atalaya/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AccountError, createItem, createRealm } from '../src/modules/provisioning/accounts.ts';
import { now } from '../src/store/db.ts';
import { isUniqueViolation } from '../src/store/errors.ts';
import { migrateToLatest } from '../src/store/migrations/index.ts';
import { createAccount, formHeaders } from './fixtures.ts';
import { describeStores, openTestApp, type TestContext } from './stores.ts';

/**
 * One owner per name (decision 015): a domain, a zone, a mail address, an FTP login and a database name belong
 * to one owner in the whole installation, whatever the caller.
 */
describeStores('one owner per name on %s', (kind) => {
  let ctx: TestContext;
  let demo: { id: number };
  let rival: { id: number };
  beforeAll(async () => {
    ctx = await openTestApp(kind);
    demo = await createRealm(ctx.store, 'demo-owner.test');
    rival = await createRealm(ctx.store, 'rival.test');
    await createItem(ctx.store, { realm: 'demo-owner.test', reference: 'example.com', domain: true, service: 'normal', mail: true });
  });
  afterAll(() => ctx.close());

  it('refuses through the accounts code a name another realm holds, or one nested with it', async () => {
    for (const reference of ['example.com', 'Example.COM.', 'mail.example.com']) {
      await expect(createItem(ctx.store, { realm: 'rival.test', reference, service: 'normal', mail: true })).rejects.toThrow(AccountError);
    }
    await expect(createItem(ctx.store, { realm: 'rival.test', reference: 'example.com', mail: true })).rejects.toThrow(
      'belongs to realm "demo-owner.test"',
    );
    const items = await ctx.store.selectFrom('item').select('reference').where('realm_id', '=', rival.id).execute();
    expect(items).toEqual([]);
  });

  it('refuses in the store itself, whatever writes to it: items, domains and zones', async () => {
    const t = now();
    const insert = (run: () => Promise<unknown>) =>
      run().then(
        () => 'accepted',
        (error) => (isUniqueViolation(error) ? 'refused' : String(error)),
      );
    expect(
      await insert(() => ctx.store.insertInto('item').values({ realm_id: rival.id, reference: 'example.com', created_at: t }).execute()),
    ).toBe('refused');
    const other = await ctx.store
      .insertInto('item')
      .values({ realm_id: rival.id, reference: 'otro.test', created_at: t })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(
      await insert(() =>
        ctx.store.insertInto('domain').values({ item_id: other.id, name: 'example.com', expire_at: t, created_at: t }).execute(),
      ),
    ).toBe('refused');
    await ctx.store.insertInto('dns_zone').values({ item_id: other.id, name: 'zona.test', created_at: t }).execute();
    const third = await ctx.store
      .insertInto('item')
      .values({ realm_id: demo.id, reference: 'tercero.test', created_at: t })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(
      await insert(() => ctx.store.insertInto('dns_zone').values({ item_id: third.id, name: 'zona.test', created_at: t }).execute()),
    ).toBe('refused');
  });

  it('stops the migration, naming them, when two realms already share a name', async () => {
    // A store from before 0008 where the rival got example.com too.
    for (const index of ['item_reference_unique', 'domain_name_unique', 'dns_zone_name_unique'])
      await sql`DROP INDEX ${sql.raw(index)}`.execute(ctx.store);
    await sql`DELETE FROM schema_migration WHERE name = '0010_name_owners'`.execute(ctx.store);
    const t = now();
    const twin = await ctx.store
      .insertInto('item')
      .values({ realm_id: rival.id, reference: 'example.com', created_at: t })
      .returning('id')
      .executeTakeFirstOrThrow();
    await expect(migrateToLatest(ctx.store)).rejects.toThrow(
      /0010_name_owners: these names belong to more than one realm: example\.com \(realms demo-owner\.test, rival\.test\)/,
    );
    await ctx.store.deleteFrom('item').where('id', '=', twin.id).execute();
    await migrateToLatest(ctx.store);
    expect(
      await ctx.store
        .selectFrom('schema_migration' as never)
        .selectAll()
        .where('name' as never, '=', '0010_name_owners' as never)
        .execute(),
    ).toHaveLength(1);
  });

  it('names databases by their service, so references that read alike never show one another', async () => {
    const a = await createAccount(ctx.store, { users: { ana: 'all=write' }, items: [{ reference: 'my-shop.test', service: 'normal' }] });
    const b = await createAccount(ctx.store, { users: { bea: 'all=write' }, items: [{ reference: 'my.shop.test', service: 'normal' }] });
    const create = async (acc: typeof a, user: string, reference: string) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/p247/service/${acc.items[reference]}/ddbb/create/`,
        headers: formHeaders(await acc.as(user)),
        payload: 'password=Db-pass-1234',
      });
      expect(res.statusCode).toBe(200);
      return res.json().data.ddbb as DatabaseView;
    };
    const first = await create(a, 'ana', 'my-shop.test');
    const second = await create(b, 'bea', 'my.shop.test');
    expect(first.bbdd).toBe(`my_shop_test_${a.items['my-shop.test']}_1`);
    expect(second.bbdd).toBe(`my_shop_test_${b.items['my.shop.test']}_1`); // its first, though the other's reads alike
  });
});
