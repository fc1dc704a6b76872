import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compiledQuery } from '../src/store/compiled.ts';
import type { Database } from '../src/store/schema.ts';
import { describeStores, openTestStore } from './stores.ts';

/** The reads on every request's path (store/compiled.ts), which on SQLite skip Kysely's executor. */
describeStores('compiled reads on %s', (kind) => {
  let ctx: Awaited<ReturnType<typeof openTestStore>>;
  let readVersion: (id: number) => Promise<{ version: number }[]>;
  const version = async () => Number((await readVersion(1))[0].version);
  const setVersion = (trx: Kysely<Database>, value: number) =>
    trx.updateTable('auth_version').set({ version: value }).where('id', '=', 1).execute();

  beforeAll(async () => {
    ctx = await openTestStore(kind);
    readVersion = compiledQuery(ctx.store, ctx.store.selectFrom('auth_version').select('version').where('id', '=', 0));
  });
  afterAll(() => ctx.cleanup());

  it('see what was committed, with the values they are given', async () => {
    await setVersion(ctx.store, 41);
    expect(await version()).toBe(41);
    expect(await readVersion(2)).toEqual([]);
  });

  it('never see what another request has written but not committed, even when it rolls back', async () => {
    await setVersion(ctx.store, 7);
    let readDuring: Promise<number> | undefined;
    await expect(
      ctx.store.transaction().execute(async (trx) => {
        await setVersion(trx, 8);
        readDuring = version();
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await readDuring).toBe(7);
    expect(await version()).toBe(7);
  });

  it('refuse a call with the wrong number of values', async () => {
    const withTwo = readVersion as (...values: number[]) => Promise<unknown>;
    await expect(withTwo(1, 2)).rejects.toThrow(/takes 1 parameters, got 2/);
  });
});
