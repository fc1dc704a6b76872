/**
 * docs/design.md#budgets: a realm with 10,000 domains stays usable. Seeds 10,000 domains for one user into the
 * bench store, times the calls the shell makes with them, and the domain list's filter (the work of
 * one keystroke over the references, then one page) typing a query one character at a time.
 */
import { AREAS } from '@atalaya/contract';
import { createRealm, createUser } from '../apps/server/src/modules/provisioning/accounts.ts';
import { createSession } from '../apps/server/src/modules/session/sessions.ts';
import { filterRows, normalise, pageOf } from '../apps/web/src/components/ui/listing.ts';
import type { BenchContext } from './scenarios.ts';

const DOMAINS = 10_000;

async function seed({ store }: BenchContext) {
  const realm = await createRealm(store, 'grande.example');
  const user = await createUser(store, 'grande.example', 'ana', 'bench-password-1');
  await store.transaction().execute(async (trx) => {
    for (let first = 0; first < DOMAINS; first += 500) {
      const names = Array.from({ length: 500 }, (_, i) => `dominio-${first + i}.es`);
      const items = await trx
        .insertInto('item')
        .values(names.map((reference) => ({ realm_id: realm.id, reference, created_at: 1 })))
        .returning('id')
        .execute();
      await trx
        .insertInto('domain')
        .values(items.map((item, i) => ({ item_id: item.id, name: names[i], expire_at: 2_000_000_000, created_at: 1 })))
        .execute();
      for (const item of items) {
        await trx
          .insertInto('permission')
          .values(AREAS.map((area) => ({ user_id: user.id, item_id: item.id, area, level: 'write' })))
          .execute();
      }
    }
  });
  return { cookie: `atalaya_sid=${await createSession(store, user.id)}`, 'x-dd-request': '1' };
}

export async function bigRealmScenario(ctx: BenchContext) {
  const headers = await seed(ctx);
  console.log(`\nA realm with ${DOMAINS.toLocaleString('en')} domains (one user with write on all):`);
  for (const [method, url] of [
    ['GET', '/p247/permission/list/'],
    ['POST', '/p247/user/info/'],
    ['POST', '/p247/permission/5000/'],
  ] as const) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const response = await fetch(`${ctx.base}${url}`, { method, headers });
      bytes = (await response.arrayBuffer()).byteLength;
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(`  ${`${method} ${url}`.padEnd(34)} median ${times[2].toFixed(1)} ms, ${(bytes / 1024).toFixed(0)} KB`);
  }
  const references = Array.from({ length: DOMAINS }, (_, i) => `dominio-${i}.es`);
  const haystacks = references.map(normalise); // built once per list load
  const costs: number[] = [];
  for (const query of ['dominio-7', 'dominio-42.es', 'minio-99']) {
    for (let end = 1; end <= query.length; end++) {
      const started = performance.now();
      pageOf(filterRows(references, haystacks, query.slice(0, end)), 1, 10);
      costs.push(performance.now() - started);
    }
  }
  costs.sort((a, b) => a - b);
  const p99 = costs[Math.floor(costs.length * 0.99)];
  console.log(
    `  domain list filter: ${costs.length} keystrokes, p99 ${p99.toFixed(2)} ms, max ${costs.at(-1)!.toFixed(2)} ms per keystroke (budget 16 ms${costs.at(-1)! < 16 ? '' : ', NOT met'})`,
  );
}
