import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { API_HEADERS, PAGE_HEADERS } from '../src/http/security-headers.ts';
import { openTestStore } from './stores.ts';

const PAGE_ONLY = ['cross-origin-opener-policy', 'origin-agent-cluster', 'referrer-policy', 'x-permitted-cross-domain-policies'];

async function panel(overrides: Record<string, unknown> = {}) {
  const webDist = mkdtempSync(path.join(tmpdir(), 'atalaya-web-'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
  const ctx = await openTestStore('sqlite', overrides);
  const app = await buildApp({ config: ctx.config, store: ctx.store, worker: false, webDist });
  return {
    get: (url: string) => app.inject({ method: 'GET', url, headers: { host: overrides.publicOrigin ? 'panel.example.com' : 'localhost' } }),
    async close() {
      await app.close();
      await ctx.cleanup();
      rmSync(webDist, { recursive: true, force: true });
    },
  };
}

describe('the security headers', () => {
  let plain: Awaited<ReturnType<typeof panel>>;
  let https: Awaited<ReturnType<typeof panel>>;
  beforeAll(async () => {
    plain = await panel();
    https = await panel({ publicOrigin: 'https://panel.example.com' });
  });
  afterAll(async () => {
    await plain.close();
    await https.close();
  });

  it('give a page the policy that lets only its own scripts run, and no frame, opener or referrer', async () => {
    for (const url of ['/admin/', '/login/', '/assets/gone-12345678.js']) {
      const res = await plain.get(url);
      for (const [name, value] of Object.entries(PAGE_HEADERS)) expect(res.headers[name], `${url} ${name}`).toBe(value);
    }
    const csp = PAGE_HEADERS['content-security-policy'];
    expect(csp).toMatch(/script-src 'self';.*frame-ancestors 'none'.*object-src 'none'/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('give an API answer a policy under which nothing loads or runs, without the headers only a page reads', async () => {
    const answers = { '/p247/config/get/': 200, '/p247/no/such/call/': 404, '/p247/permission/list/': 403 } as Record<string, number>;
    for (const [url, status] of Object.entries(answers)) {
      const res = await plain.get(url);
      expect(res.statusCode, url).toBe(status);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['cache-control']).toBe('no-store');
      for (const name of PAGE_ONLY) expect(res.headers[name], `${url} ${name}`).toBeUndefined();
    }
    expect(Object.keys(API_HEADERS).sort()).toEqual(
      ['cache-control', 'content-security-policy', 'cross-origin-resource-policy', 'x-content-type-options', 'x-frame-options'].sort(),
    );
  });

  it('ask browsers for HTTPS only when the panel is published over HTTPS, on pages and API answers alike', async () => {
    for (const url of ['/admin/', '/p247/config/get/']) {
      const res = await https.get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000');
      expect((await plain.get(url)).headers['strict-transport-security'], url).toBeUndefined();
    }
  });
});
