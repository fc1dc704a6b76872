import { type CreateTableBuilder, type Kysely, sql } from 'kysely';

/** An auto-numbered primary key, spelled the way each store wants it. */
export function withId<T extends string>(table: CreateTableBuilder<T>, kind: 'sqlite' | 'postgres') {
  return kind === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
export type MigrationDb = Kysely<any>;

/** The two stores a migration is written for. */
export type StoreKind = 'sqlite' | 'postgres';

/** A store to migrate: the migrations see its kind, never the app's typed Store (db.ts imports them). */
export type MigratableStore = MigrationDb & { readonly kind: StoreKind };

/**
 * Triggers that bump `auth_version` after any insert, update or delete on `table`, from any
 * process: what servers keep in memory is dropped on the next request (decision 024). On
 * PostgreSQL once per statement, with 0007's `bump_auth_version()`.
 */
export async function bumpAuthVersionOnChange(db: MigrationDb, kind: 'sqlite' | 'postgres', table: string) {
  if (kind === 'postgres') {
    await sql
      .raw(
        `CREATE TRIGGER auth_version_${table} AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION bump_auth_version()`,
      )
      .execute(db);
    return;
  }
  for (const event of ['insert', 'update', 'delete']) {
    await sql
      .raw(
        `CREATE TRIGGER auth_version_${table}_${event} AFTER ${event.toUpperCase()} ON "${table}" BEGIN UPDATE auth_version SET version = version + 1 WHERE id = 1; END`,
      )
      .execute(db);
  }
}
