import autocannon from 'autocannon';
import { DEMO_REALM } from '../apps/server/src/demo/seed.ts';
import { createSession, SESSION_COOKIE } from '../apps/server/src/modules/session/sessions.ts';
import { type LoadResult, report } from './load.ts';
import type { BenchContext } from './scenarios.ts';

/** Like load(), for the account calls that are POSTs; loopback only. */
async function loadPost(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  method: 'GET' | 'POST' = 'POST',
): Promise<LoadResult> {
  if (!/^http:\/\/127\.0\.0\.1[:/]/.test(url)) throw new Error('benchmarks only target loopback');
  const r = await autocannon({ url, method, headers, connections: 50, duration: seconds, pipelining: 1 });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

/** The signed-in reads every page of the shell makes: the user record and the permission list. */
export async function accountScenario(ctx: BenchContext) {
  const demo = await ctx.store
    .selectFrom('user')
    .innerJoin('realm', 'realm.id', 'user.realm_id')
    .select('user.id')
    .where('realm.name', '=', DEMO_REALM)
    .where('user.username', '=', 'demo')
    .executeTakeFirstOrThrow();
  const headers = { cookie: `${SESSION_COOKIE}=${await createSession(ctx.store, demo.id)}`, 'x-dd-request': '1' };
  report('POST /p247/user/info/ (signed in)', await loadPost(`${ctx.base}/p247/user/info/`, headers, ctx.seconds), ctx.baseline);
  report(
    'GET /p247/permission/list/ (14 items)',
    await loadPost(`${ctx.base}/p247/permission/list/`, headers, ctx.seconds, 'GET'),
    ctx.baseline,
  );
}
