import type { Store } from '../../store/db.ts';

/** The poll messages the panel could not read, oldest first, for the operator. */
export const listRegistryMessages = (store: Store) =>
  store.selectFrom('registry_message').select(['message_id', 'queued_at', 'text', 'xml']).orderBy('id').execute();
