import type { CreateTableBuilder, Kysely } from 'kysely';

/** An auto-numbered primary key, spelled the way each store wants it. */
export function withId<T extends string>(table: CreateTableBuilder<T>, kind: 'sqlite' | 'postgres') {
  return kind === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
export type MigrationDb = Kysely<any>;
