import { DEMO_REALM } from '../apps/server/src/demo/seed.ts';
import { createSession, SESSION_COOKIE } from '../apps/server/src/modules/session/sessions.ts';
import type { Store } from '../apps/server/src/store/db.ts';
import { load, report } from './load.ts';
import type { BenchContext } from './scenarios.ts';

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

/**
 * docs/design.md#budgets: the authenticated read of the domain screen, `GET /p247/domain/{id}/` on the demo's
 * example.com (four contacts, three name servers), as the demo user. Budget: ≥ 0.35× the bare
 * node:http server and p99 ≤ 10 ms at 50 connections.
 */
export async function domainScenario(ctx: BenchContext) {
  const { row, headers } = await demoDomainRead(ctx.store);
  const result = await load(`${ctx.base}/p247/domain/${row.itemId}/`, { headers, seconds: ctx.seconds });
  report(`GET /p247/domain/${row.itemId}/ (signed in)`, result, ctx.baseline);
  const ratio = result.rps / ctx.baseline.rps;
  console.log(`  budget ≥ 0.35× and p99 ≤ 10 ms: ${ratio >= 0.35 && result.p99 <= 10 && result.errors === 0 ? 'met' : 'NOT met'}`);
}
