import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { SqliteDialect } from 'kysely';

/** node:sqlite binds no booleans or Dates; the store keeps flags as 0/1 and times as Unix seconds. */
function bindable(values: readonly unknown[]): SQLInputValue[] {
  return values.map((v) => {
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (v === undefined) return null;
    return v as SQLInputValue;
  });
}

/**
 * Kysely's SqliteDialect expects the better-sqlite3 API; node:sqlite (built into Node 24, no native
 * addon tied to one ABI) differs only in spread parameters and how it tells readers apart.
 */
export function nodeSqliteDialect(file: string) {
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;');
  const cache = new Map<string, StatementSync>();
  return new SqliteDialect({
    database: {
      close: () => db.close(),
      prepare(sql: string) {
        // Preparing dominated the profile of small reads; the panel's queries are few and fixed.
        let statement = cache.get(sql);
        if (!statement) {
          statement = db.prepare(sql);
          if (cache.size < 500) cache.set(sql, statement);
        }
        return {
          reader: statement.columns().length > 0,
          all: (params: readonly unknown[]) => statement.all(...bindable(params)),
          run: (params: readonly unknown[]) => {
            const r = statement.run(...bindable(params));
            return { changes: Number(r.changes), lastInsertRowid: Number(r.lastInsertRowid) };
          },
          iterate: (params: readonly unknown[]) => statement.iterate(...bindable(params)),
        };
      },
    },
  });
}
