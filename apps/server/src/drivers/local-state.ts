import type { Store } from '../store/db.ts';
import { now } from '../store/db.ts';

/**
 * The backend the `local` drivers stand in for: named objects kept in the store, so a demo or a
 * test behaves like a real server (an object exists once, survives restarts, can be listed).
 */
export function localState<T>(store: Store, driver: string) {
  return {
    async get(key: string): Promise<T | undefined> {
      const row = await store
        .selectFrom('local_backend')
        .select('data')
        .where('driver', '=', driver)
        .where('key', '=', key)
        .executeTakeFirst();
      return row ? (JSON.parse(row.data) as T) : undefined;
    },
    async put(key: string, value: T) {
      const data = JSON.stringify(value);
      await store
        .insertInto('local_backend')
        .values({ driver, key, data, updated_at: now() })
        .onConflict((oc) => oc.columns(['driver', 'key']).doUpdateSet({ data, updated_at: now() }))
        .execute();
    },
    async remove(key: string) {
      await store.deleteFrom('local_backend').where('driver', '=', driver).where('key', '=', key).execute();
    },
    async keys(): Promise<string[]> {
      const rows = await store.selectFrom('local_backend').select('key').where('driver', '=', driver).orderBy('key').execute();
      return rows.map((r) => r.key);
    },
  };
}
