/**
 * Web budgets (DESIGN §8): gzip JS/CSS of the sign-in route from a fresh Vite build, and Lighthouse
 * (mobile, performance) on /login/ and /admin/ with Debian Chromium against a server of its own.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { loadConfig } from '../apps/server/src/config/config.ts';
import { createSession, SESSION_COOKIE } from '../apps/server/src/modules/session/sessions.ts';
import { openStore } from '../apps/server/src/store/db.ts';
import { loginRouteSize } from './web-size.ts';

const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function build(outDir: string) {
  const result = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', 'apps/web', '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'error'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('vite build failed');
}

async function startServer(dist: string, dataDir: string, port: number) {
  const server = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'apps/server/src/server.ts'], {
    stdio: 'ignore',
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ATALAYA_WEB_DIST: dist, ATALAYA_DATA_DIR: dataDir, ATALAYA_DEMO_PASSWORD: 'bench-password-1', DATABASE_URL: '' },
  });
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/p247/config/get/`).then((r) => r.ok, () => false);
    if (up) return server;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  server.kill();
  throw new Error('server did not start');
}

/** A live session of the demo user, so Lighthouse measures the signed-in dashboard. */
async function demoCookie(dataDir: string) {
  const store = await openStore(loadConfig({ ATALAYA_DATA_DIR: dataDir, DATABASE_URL: '' }));
  try {
    const user = await store.selectFrom('user').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
    return `${SESSION_COOKIE}=${await createSession(store, user.id)}`;
  } finally {
    await store.destroy();
  }
}

async function performance(url: string, cookie?: string) {
  const chrome = await launch({ chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });
  try {
    const result = await lighthouse(url, { port: chrome.port, onlyCategories: ['performance'], logLevel: 'error', extraHeaders: cookie ? { Cookie: cookie } : undefined });
    const lhr = result?.lhr;
    const metric = (id: string) => lhr?.audits[id]?.displayValue ?? '?';
    return { score: Math.round((lhr?.categories.performance.score ?? 0) * 100), lcp: metric('largest-contentful-paint'), tbt: metric('total-blocking-time'), cls: metric('cumulative-layout-shift') };
  } finally {
    chrome.kill();
  }
}

export async function webScenario() {
  const work = mkdtempSync(path.join(tmpdir(), 'atalaya-web-bench-'));
  // WEB_BENCH_DIST measures an existing build instead of building afresh.
  const dist = process.env.WEB_BENCH_DIST ?? path.join(work, 'dist');
  const port = 18290 + Math.floor(Math.random() * 9);
  if (!process.env.WEB_BENCH_DIST) build(dist);
  const server = await startServer(dist, path.join(work, 'data'), port);
  try {
    const size = await loginRouteSize(dist, `http://127.0.0.1:${port}`);
    console.log('\nWeb budgets (sign-in route, gzip, as loaded by the browser): JS ≤ 140 KB, CSS ≤ 30 KB');
    console.log(`  before any input      JS ${kb(size.initial.jsGzip)}  CSS ${kb(size.initial.cssGzip)}  (${size.initial.files} files)`);
    console.log(`  + first field focused JS ${kb(size.withCaptcha.jsGzip)}  CSS ${kb(size.withCaptcha.cssGzip)}  (${size.withCaptcha.files} files, captcha widget)`);
    const cookie = await demoCookie(path.join(work, 'data'));
    console.log('Lighthouse mobile, performance (≥ 95):');
    for (const [page, auth] of [['/login/', undefined], ['/admin/', cookie]] as const) {
      const r = await performance(`http://127.0.0.1:${port}${page}`, auth);
      console.log(`  ${page.padEnd(10)} score ${r.score}  LCP ${r.lcp}  TBT ${r.tbt}  CLS ${r.cls}`);
    }
  } finally {
    server.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
}
