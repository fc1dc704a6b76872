/**
 * `npm run bench`: the API against a bare node:http JSON server measured in the same run (docs/design.md#budgets).
 * Each scenario file exports a run(ctx) that adds its own lines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config/config.ts';
import { seedDemoIfEmpty } from '../apps/server/src/demo/seed.ts';
import { openStore } from '../apps/server/src/store/db.ts';
import { load, report } from './load.ts';
import { SCENARIOS } from './scenarios.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const dataDir = mkdtempSync(path.join(tmpdir(), 'atalaya-bench-'));

const body = JSON.stringify({
  system: { valid: true, errors: [], inputs: [], info: [], statusCode: 200, debug: [], job: null, mlcVer: '1' },
  data: { company: 'Atalaya' },
});
const bare = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-dd': '1' });
  res.end(body);
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));

const config = loadConfig({ ATALAYA_DATA_DIR: dataDir, ATALAYA_DEMO_PASSWORD: 'bench-password-1', DATABASE_URL: '' });
const store = await openStore(config);
const app = await buildApp({ config, store });
await seedDemoIfEmpty(app.runtime);
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

console.log(`Atalaya bench: ${seconds} s per run, 50 connections, SQLite store, Node ${process.version}\n`);
const baseline = await load(`http://127.0.0.1:${(bare.address() as { port: number }).port}/`, { seconds });
report('bare node:http JSON (baseline)', baseline);
report('GET /p247/config/get/', await load(`${base}/p247/config/get/`, { seconds }), baseline);
for (const scenario of SCENARIOS) await scenario({ base, app, store, config, baseline, seconds });

await app.close();
await store.destroy();
bare.close();
rmSync(dataDir, { recursive: true, force: true });
console.log(
  `\nServer RSS after the runs: ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB (bench process, includes the load generator)`,
);
