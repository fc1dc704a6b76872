import type { Transaction } from 'kysely';
import { now, type Store } from './db.ts';
import { EXCLUSIVE, runExclusive } from './exclusive.ts';
import type { Database } from './schema.ts';

/**
 * The periodic clean-ups of a server process, run by one process at a time however many share the
 * store: menu notices older than an hour (sockets only look back seconds) and spent captcha
 * signatures past their expiry. Answers a stop function.
 */
export function startHousekeeping(store: Store, log: (err: unknown) => void, intervalMs = 60_000) {
  const clean = async (trx: Transaction<Database>) => {
    const t = now();
    await trx
      .deleteFrom('notice')
      .where('at', '<', t - 3600)
      .execute();
    await trx.deleteFrom('used_challenge').where('expires_at', '<', t).execute();
  };
  const timer = setInterval(() => void runExclusive(store, EXCLUSIVE.housekeeping, clean).catch(log), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
