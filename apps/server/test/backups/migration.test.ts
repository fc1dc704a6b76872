import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WHOLE_ITEM } from '../../src/outbox/lanes.ts';
import { migrateToLatest } from '../../src/store/migrations/index.ts';
import { bearerOf, createAccount } from '../fixtures.ts';
import { describeStores, openTestStore } from '../stores.ts';

type Opened = Awaited<ReturnType<typeof openTestStore>>;

describeStores('migration 0044 on %s: the new area service_backups at the level of service', (kind) => {
  let opened: Opened;
  beforeAll(async () => {
    opened = await openTestStore(kind);
  });
  afterAll(async () => opened?.cleanup());

  it("gives every user's item service_backups at its level of service, and a token scope naming service the same", async () => {
    const { store } = opened;
    const account = await createAccount(store, {
      users: { writer: 'service=write', reader: 'service=read', none: 'domain=write' },
      items: [{ reference: 'tienda.test', service: 'normal' }],
    });
    await bearerOf(store, account.users.writer, 'service=read');
    // The store as 0043 left it: no backups tables, no service_backups rows, a whole-item job of nine lanes.
    await store.deleteFrom('permission').where('area', '=', 'service_backups').execute();
    for (const table of ['backup_restore', 'backup', 'backup_repository']) await sql.raw(`DROP TABLE ${table}`).execute(store);
    await store
      .deleteFrom('schema_migration' as never)
      .where('name' as never, '=', '0044_backups' as never)
      .execute();
    const tokens = await store.selectFrom('api_token').select(['id', 'scope']).execute();
    for (const t of tokens) {
      const { service_backups: _, ...scope } = JSON.parse(t.scope);
      await store
        .updateTable('api_token')
        .set({ scope: JSON.stringify(scope) })
        .where('id', '=', t.id)
        .execute();
    }
    const job = await store
      .insertInto('job')
      .values({
        kind: 'service.move',
        item_id: account.items['tienda.test'],
        payload: '{}',
        status: 'pending',
        next_at: 0,
        created_at: 0,
        updated_at: 0,
        lanes: 0b1_1111_1111,
        after_lanes: 0b1_1111_1111,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    await migrateToLatest(store);

    const rows = await store
      .selectFrom('permission')
      .select(['user_id', 'level'])
      .where('area', '=', 'service_backups')
      .orderBy('user_id')
      .execute();
    expect(rows).toEqual([
      { user_id: account.users.writer, level: 'write' },
      { user_id: account.users.reader, level: 'read' },
    ]);
    const [token] = await store.selectFrom('api_token').select('scope').execute();
    expect(JSON.parse(token.scope)).toMatchObject({ service: 'read', service_backups: 'read' });
    const moved = await store.selectFrom('job').select(['lanes', 'after_lanes']).where('id', '=', job.id).executeTakeFirstOrThrow();
    expect(moved).toEqual({ lanes: WHOLE_ITEM, after_lanes: WHOLE_ITEM });
    expect(await store.selectFrom('backup').select('id').execute()).toEqual([]);
  });
});
