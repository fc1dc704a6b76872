import type { CompiledQuery } from 'kysely';
import { vi } from 'vitest';
import type { Store } from '../src/store/db.ts';
import type { ReadNow } from '../src/store/sqlite-dialect.ts';

/**
 * How many statements whose SQL contains `table` the store runs while `during` runs: straight on
 * SQLite (`readNow`, the reads on every request's path) and through Kysely on either store.
 */
export async function statementsOn(store: Store, table: string, during: () => Promise<unknown>) {
  const target = store as Omit<Store, 'readNow'> & { readNow?: ReadNow };
  let count = 0;
  const note = (sql: string) => {
    if (sql.includes(table)) count++;
  };
  const readNow = target.readNow;
  if (readNow) {
    target.readNow = (sql, parameters) => {
      note(sql);
      return readNow(sql, parameters);
    };
  }
  const executeQuery = store.executeQuery.bind(store);
  const spy = vi.spyOn(store, 'executeQuery').mockImplementation((query) => {
    note((query as CompiledQuery).sql);
    return executeQuery(query);
  });
  try {
    await during();
  } finally {
    target.readNow = readNow;
    spy.mockRestore();
  }
  return count;
}
