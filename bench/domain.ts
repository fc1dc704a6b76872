import { DEMO_REALM } from '../apps/server/src/demo/seed.ts';
import { createSession, SESSION_COOKIE } from '../apps/server/src/modules/session/sessions.ts';
import type { Store } from '../apps/server/src/store/db.ts';

/** The demo user's signed-in read of the demo domain: its item id and a fresh session's headers. */
export async function demoDomainRead(store: Store) {
  const row = await store
    .selectFrom('user')
    .innerJoin('realm', 'realm.id', 'user.realm_id')
    .innerJoin('item', 'item.realm_id', 'realm.id')
    .select(['user.id as userId', 'item.id as itemId'])
    .where('realm.name', '=', DEMO_REALM)
    .where('user.username', '=', 'demo')
    .where('item.reference', '=', DEMO_REALM)
    .executeTakeFirstOrThrow();
  const headers = { cookie: `${SESSION_COOKIE}=${await createSession(store, row.userId)}`, 'x-dd-request': '1' };
  return { row, headers };
}
