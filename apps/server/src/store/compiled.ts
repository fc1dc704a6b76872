import type { Compilable } from 'kysely';
import type { Store } from './db.ts';

/**
 * A query built and compiled once, for the few reads on every request's path: each call runs the
 * same SQL with new parameter values, in the order they appear. Building and compiling cost about
 * as much as running a small query on SQLite, and on SQLite the read skips Kysely's executor
 * (`Store.readNow`) unless a transaction holds the connection.
 */
export function compiledQuery<Row>(store: Store, query: Compilable<Row>) {
  const compiled = query.compile();
  return async (...parameters: unknown[]): Promise<Row[]> => {
    if (parameters.length !== compiled.parameters.length) {
      throw new Error(`compiled query takes ${compiled.parameters.length} parameters, got ${parameters.length}`);
    }
    const rows = store.readNow?.(compiled.sql, parameters) as Row[] | undefined;
    return rows ?? (await store.executeQuery<Row>({ ...compiled, parameters })).rows;
  };
}
