import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/db.ts';
import type { Payloads } from './actions.ts';
import { queueRegistryChange } from './changes.ts';
import { defaultRegistration } from './defaults.ts';

/**
 * Queues the registration of a domain the registry has not got (decision 051), with the realm's
 * default contacts and the provider's name servers, for a year: the `register` registry change,
 * billed to `actor` once the registry has applied it (the action's settle, billRegistration). The customer's register call
 * and the CLI's `item-create --register` both queue it here. Answers the change's id.
 */
export async function queueRegistration(
  runtime: { store: Store; config: Config },
  domain: { itemId: number; name: string; realm: string },
  by: { actor: string; userId: number | null },
) {
  const registration = { ...(await defaultRegistration(runtime, domain.itemId, domain.name, domain.realm)), years: 1 };
  const payload: Payloads['register'] = { registration, actor: by.actor };
  return runtime.store
    .transaction()
    .execute((trx) => queueRegistryChange(trx, { itemId: domain.itemId, action: 'register', payload, userId: by.userId }));
}
