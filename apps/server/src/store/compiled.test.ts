import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStores, openTestStore } from '../../test/stores.ts';
import { compiledQuery } from './compiled.ts';

describeStores('a query compiled once on %s', (kind) => {
  let ctx: Awaited<ReturnType<typeof openTestStore>>;
  beforeAll(async () => {
    ctx = await openTestStore(kind);
    await ctx.store
      .insertInto('realm')
      .values([
        { name: 'uno.es', created_at: 1 },
        { name: 'dos.es', created_at: 2 },
      ])
      .execute();
  });
  afterAll(() => ctx.cleanup());

  it('runs with each call’s own parameters', async () => {
    const byName = compiledQuery(ctx.store, ctx.store.selectFrom('realm').select('created_at').where('name', '=', ''));
    expect(await byName('uno.es')).toEqual([{ created_at: 1 }]);
    expect(await byName('dos.es')).toEqual([{ created_at: 2 }]);
    expect(await byName('tres.es')).toEqual([]);
  });

  it('refuses a call with the wrong number of parameters', async () => {
    const byName = compiledQuery(ctx.store, ctx.store.selectFrom('realm').select('id').where('name', '=', ''));
    await expect(byName()).rejects.toThrow(/takes 1 parameters, got 0/);
  });
});
