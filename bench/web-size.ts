/**
 * Gzip size of the JS and CSS the sign-in page really loads (docs/design.md#budgets), seen from a browser:
 * every script and stylesheet fetched by /login/ until the network is idle, with no user input,
 * and then once the user has focused the first field (the captcha widget loads then).
 * Sizes are those of the built files gzipped at level 9, whatever the server sends.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/env.ts';

export interface RouteSize {
  jsGzip: number;
  cssGzip: number;
  files: number;
}

function measure(dist: string, urls: Set<string>): RouteSize {
  const size = (kind: RegExp) =>
    [...urls]
      .map((url) => new URL(url).pathname)
      .filter((file) => kind.test(file))
      .reduce((sum, file) => sum + gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length, 0);
  return { jsGzip: size(/\.m?js$/), cssGzip: size(/\.css$/), files: urls.size };
}

export async function loginRouteSize(dist: string, origin: string) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const loaded = new Set<string>();
    page.on('requestfinished', (request) => {
      if (['script', 'stylesheet'].includes(request.resourceType())) loaded.add(request.url());
    });
    await page.goto(`${origin}/login/`, { waitUntil: 'networkidle' });
    const initial = measure(dist, loaded);
    await page.locator('form input').first().focus();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1000);
    return { initial, withCaptcha: measure(dist, loaded) };
  } finally {
    await browser.close();
  }
}
