/**
 * docs/design.md#budgets, docs/decisions/025-paged-lists.md: a realm of many items stays as quick as a
 * small one. Seeds a realm through the fast seed (seedBulkRealm: N items mixing domains, hosting and
 * mail, one user with write on all), then times the calls the shell makes at start-up and the first
 * page of each list, with its bytes: in `npm run bench` from the bench's process against the
 * running server; alone, as server time (Fastify's inject: no network, no client).
 *
 * Alone: `node bench/big-realm.ts [items]` (default 100,000) on a fresh SQLite store, or on
 * PostgreSQL when BENCH_PG holds an admin URL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config/config.ts';
import { seedBulkRealm } from '../apps/server/src/modules/provisioning/bulk.ts';
import { createSession, SESSION_COOKIE } from '../apps/server/src/modules/session/sessions.ts';
import { openStore, type Store } from '../apps/server/src/store/db.ts';
import { freshDatabase } from '../apps/server/test/pg.ts';
import type { BenchContext } from './scenarios.ts';

type App = Awaited<ReturnType<typeof buildApp>>;
/** One call as the measurement sends it: its answer's status and size in bytes. */
type Send = (method: 'GET' | 'POST', url: string, headers: Record<string, string>) => Promise<{ status: number; bytes: number }>;

const injecting =
  (app: App): Send =>
  async (method, url, headers) => {
    const response = await app.inject({ method, url, headers });
    return { status: response.statusCode, bytes: response.rawPayload.byteLength };
  };

const fetching =
  (base: string): Send =>
  async (method, url, headers) => {
    const response = await fetch(`${base}${url}`, { method, headers });
    return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
  };

const CALLS: [method: 'GET' | 'POST', url: string][] = [
  ['GET', '/p247/config/get/'],
  ['POST', '/p247/user/info/'],
  ['GET', '/p247/list/kinds/'],
  ['GET', '/p247/list/domain/?page=1'],
  ['GET', '/p247/list/service/?page=1'],
  ['GET', '/p247/list/mail/?page=1'],
  ['GET', '/p247/list/domain/?page=1&sort=expiry&order=desc'],
  ['GET', '/p247/list/domain/?page=500'],
  ['GET', `/p247/list/domain/?page=1&filter=${encodeURIComponent('café 0042')}`],
  // The old every-item answer, still served for older callers; the SPA no longer asks for it.
  ['GET', '/p247/permission/list/'],
];

export async function measureBigRealm(send: Send, store: Store, items: number, where: string, realm = 'grande.example') {
  const started = performance.now();
  const seeded = await seedBulkRealm(store, { realm, username: 'ana', password: 'bench-password-1', items });
  const seedSeconds = (performance.now() - started) / 1000;
  console.log(
    `\nA realm of ${items.toLocaleString('en')} items (${store.kind}), seeded in ${seedSeconds.toFixed(1)} s; ${where}, median of 7:`,
  );
  const headers = { cookie: `${SESSION_COOKIE}=${await createSession(store, seeded.userId)}`, 'x-dd-request': '1' };
  for (const [method, url] of CALLS) {
    const times: number[] = [];
    let bytes = 0;
    let status = 0;
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      ({ status, bytes } = await send(method, url, headers));
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const size = bytes < 10_240 ? `${bytes} B` : `${(bytes / 1024).toFixed(0)} KB`;
    console.log(`  ${`${method} ${url}`.padEnd(62)} ${times[3].toFixed(1).padStart(7)} ms  ${size.padStart(8)}  (${status})`);
  }
}

export async function bigRealmScenario(ctx: BenchContext) {
  await measureBigRealm(fetching(ctx.base), ctx.store, Number(process.env.BENCH_ITEMS ?? 10_000), 'time seen from another process');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const items = Number(process.argv[2] ?? 100_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atalaya-bench-realm-'));
  const pg = process.env.BENCH_PG ? await freshDatabase(process.env.BENCH_PG) : null;
  const config = loadConfig({ ATALAYA_DATA_DIR: dataDir, DATABASE_URL: pg?.url ?? '' });
  const store = await openStore(config);
  const app = await buildApp({ config, store, worker: false });
  try {
    await measureBigRealm(injecting(app), store, items, 'server time');
  } finally {
    await app.close();
    await store.destroy();
    await pg?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
