import { AsyncLocalStorage } from 'node:async_hooks';

/** One command as a remote registry answered it: what the activity log keeps of a change. */
export interface RegistryTransaction {
  command: string;
  clTRID: string;
  /** Empty when the answer never came and the driver learnt the outcome with an `info`. */
  svTRID: string;
  result: number;
  /** 1001: the registry accepted the change and completes it later (its poll queue says when). */
  pending: boolean;
}

const current = new AsyncLocalStorage<RegistryTransaction[]>();

/**
 * Runs `work` and collects the registry transactions made for it into `transactions`, so the
 * caller can keep the clTRID and svTRID with the change, and show a pending change as pending.
 * The list is the caller's, so the transactions of a refused change are there after it threw.
 * Drivers without a remote registry record none.
 */
export async function traceRegistry<T>(
  work: () => Promise<T>,
  transactions: RegistryTransaction[] = [],
): Promise<{ value: T; transactions: RegistryTransaction[] }> {
  const value = await current.run(transactions, work);
  return { value, transactions };
}

export function recordTransaction(transaction: RegistryTransaction) {
  current.getStore()?.push(transaction);
}
