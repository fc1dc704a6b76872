import { sql, type Transaction } from 'kysely';
import type { Store } from './db.ts';
import type { Database } from './schema.ts';

/**
 * Runs `work` unless another process is running the same work right now (the same `key`: the
 * scheduler's, scheduler.ts), and answers whether it
 * ran. The work gets a transaction: on PostgreSQL it holds a transaction-level advisory try-lock
 * for as long as the work runs (another process holding it skips this round); SQLite is one file
 * with one writer, so the work simply runs in its transaction.
 */
export async function runExclusive(store: Store, key: number, work: (trx: Transaction<Database>) => Promise<unknown>): Promise<boolean> {
  return store.transaction().execute(async (trx) => {
    if (store.kind === 'postgres') {
      const got = await sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(${key}) AS ok`.execute(trx);
      if (!got.rows[0]?.ok) return false;
    }
    await work(trx);
    return true;
  });
}
