import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { logoPreload } from '../src/http/page-logo.ts';
import { openTestStore } from './stores.ts';

describe('serving the built SPA', () => {
  const webDist = mkdtempSync(path.join(tmpdir(), 'atalaya-web-'));
  let ctx: Awaited<ReturnType<typeof openTestStore>>;
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    mkdirSync(path.join(webDist, 'assets', 'images'), { recursive: true });
    writeFileSync(path.join(webDist, 'assets', 'images', 'logo_mini.png'), 'png');
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
    ctx = await openTestStore('sqlite');
    app = await buildApp({ config: ctx.config, store: ctx.store, worker: false, webDist });
  });
  afterAll(async () => {
    await app.close();
    await ctx.cleanup();
  });

  it('answers the SPA for deep links, uncached', async () => {
    const res = await app.inject({ method: 'GET', url: '/admin/12/service/ftp/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root">');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers the SPA at the address npm start prints, the bare root, with or without a query', async () => {
    for (const url of ['/', '/?language=en']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('names the logo each page shows first for preload: the large one on the sign-in page, the mini one elsewhere', async () => {
    const { logo, logoMini } = ctx.config.company;
    const signIn = await app.inject({ method: 'GET', url: '/login/?next=x' });
    expect(signIn.headers.link).toBe(`<${logo}>; rel=preload; as=image; fetchpriority=high`);
    const dashboard = await app.inject({ method: 'GET', url: '/admin/' });
    expect(dashboard.headers.link).toBe(`<${logoMini}>; rel=preload; as=image; fetchpriority=high`);
    expect(logo).not.toBe(logoMini);
  });

  it('does not preload a logo whose URL would break out of the Link header', () => {
    const company = { ...ctx.config.company, logoMini: '/x.png>; rel=stylesheet' };
    expect(logoPreload(company, '/admin/')).toBeNull();
    expect(logoPreload(company, '/login/')).not.toBeNull();
  });

  it('keeps the public images an hour, so a second use of a logo in the same page does not wait for a 304', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/images/logo_mini.png' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('serves an asset written after the server started, as a rebuild does', async () => {
    writeFileSync(path.join(webDist, 'assets', 'index-AbCdEf12.js'), 'export const built = 2;');
    const res = await app.inject({ method: 'GET', url: '/assets/index-AbCdEf12.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('export const built = 2;');
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('answers 404 for a missing asset instead of the SPA', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/gone-12345678.js' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('text/plain');
  });
});
