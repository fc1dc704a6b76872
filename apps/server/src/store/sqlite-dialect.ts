import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { CompiledQuery, type DatabaseConnection, type Driver, SqliteDialect } from 'kysely';
import { ownSignals } from './own-signals.ts';

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
/**
 * Transactions take the write lock when they begin. A deferred one that reads and then writes
 * cannot wait under busy_timeout when another process (the CLI, a second server) wrote in
 * between: SQLite answers SQLITE_BUSY at once. Taking the lock first makes it wait instead.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return driver;
  }
}

/** A node:sqlite statement in the shape of better-sqlite3's, which Kysely's dialect drives. */
function adapt(statement: StatementSync) {
  return {
    reader: statement.columns().length > 0,
    all: (params: readonly unknown[]) => statement.all(...bindable(params)),
    run: (params: readonly unknown[]) => {
      const r = statement.run(...bindable(params));
      return { changes: Number(r.changes), lastInsertRowid: Number(r.lastInsertRowid) };
    },
    iterate: (params: readonly unknown[]) => statement.iterate(...bindable(params)),
  };
}

/** A read run at once on the connection, or undefined while a transaction holds it (see `readNow`). */
export type ReadNow = (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;

const BUSY_TIMEOUT_MS = 5000;
const SQLITE_BUSY = 5;

/**
 * Switches the file to WAL. Two processes starting on one new file (the server and the admin CLI,
 * or two server processes) race for it: while one switches or migrates, the other's switch is
 * refused at once with SQLITE_BUSY, since SQLite does not wait out the busy timeout where waiting
 * could deadlock. The refused one pauses and tries again, for as long as that timeout.
 */
function switchToWal(db: DatabaseSync) {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (err) {
      if ((err as { errcode?: number }).errcode !== SQLITE_BUSY || Date.now() > deadline) throw err;
      Atomics.wait(pause, 0, 0, 10);
    }
  }
}

export function nodeSqliteDialect(file: string) {
  const db = new DatabaseSync(file);
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  switchToWal(db);
  db.exec('PRAGMA foreign_keys = ON');
  // Preparing dominated the profile of small reads; the panel's queries are few and fixed, so each
  // is prepared once and kept with the adapter Kysely expects.
  const cache = new Map<string, ReturnType<typeof adapt>>();
  const prepare = (sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = adapt(db.prepare(sql));
      if (cache.size < 500) cache.set(sql, statement);
    }
    return statement;
  };
  /**
   * The few reads on every request's path (store/compiled.ts), run at once: node:sqlite is
   * synchronous, so outside a transaction a statement runs whole before anything else can, and
   * Kysely's connection lock, promise chain and result wrapping cost more than the read itself.
   * Inside another request's transaction the read would see its uncommitted writes: then it goes
   * through Kysely and waits for the connection like any query.
   */
  const readNow: ReadNow = (sql, parameters) => (db.isTransaction ? undefined : prepare(sql).all(parameters));
  return { dialect: new ImmediateSqliteDialect({ database: { close: () => db.close(), prepare } }), readNow, signals: ownSignals(db) };
}
