import { request as httpRequest } from 'node:http';
import { networkInterfaces } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { allowedHosts, hostnameOf, originWarning } from '../src/http/origins.ts';
import { describeStores, openTestApp, type TestContext } from './stores.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded', 'x-dd-request': '1' };

/** The origin default (decision 015): without publicOrigin the panel answers only to names an attacker cannot hold. */
describeStores('the names the panel answers to on %s', (kind) => {
  let ctx: TestContext;
  let tls: TestContext;
  beforeAll(async () => {
    ctx = await openTestApp(kind);
    tls = await openTestApp(kind, { publicOrigin: 'https://panel.example.com' });
  });
  afterAll(async () => {
    await ctx.close();
    await tls.close();
  });

  const config = (app: TestContext, host: string, headers: Record<string, string> = {}) =>
    app.app.inject({ method: 'GET', url: '/p247/config/get/', headers: { host, ...headers } });
  const signIn = (app: TestContext, host: string, origin?: string) =>
    app.app.inject({
      method: 'POST',
      url: '/p247/user/login/',
      headers: { ...FORM, host, ...(origin ? { origin } : {}) },
      payload: 'domainName=example.com&username=victim&password=x&recaptcha_response=x',
    });

  it('refuses a rebound name, with or without its Origin: DNS rebinding reaches no call', async () => {
    const rebound = await signIn(ctx, 'evil.test', 'http://evil.test');
    expect(rebound.statusCode).toBe(403);
    expect(rebound.json().system.errors).toEqual(['Petición rechazada: origen no permitido']);
    expect((await signIn(ctx, 'evil.test:8080', 'http://evil.test:8080')).statusCode).toBe(403);
    expect((await config(ctx, 'evil.test')).statusCode).toBe(403);
    expect((await config(ctx, 'evil.test', { 'sec-fetch-site': 'same-origin' })).statusCode).toBe(403);
  });

  it('answers loopback names, with their own Origin only', async () => {
    for (const host of ['localhost:8080', '127.0.0.1:8080', '[::1]:8080', 'panel.localhost', '127.1.2.3']) {
      expect((await config(ctx, host)).statusCode, host).toBe(200);
      expect((await signIn(ctx, host, `http://${host}`)).statusCode, host).toBe(400); // reached the captcha check
    }
    expect((await signIn(ctx, 'localhost:8080', 'http://localhost:3000')).statusCode).toBe(403);
    expect((await signIn(ctx, 'localhost:8080', 'http://evil.test')).statusCode).toBe(403);
  });

  it('with publicOrigin, answers its name and loopback, and nothing else', async () => {
    expect((await signIn(tls, 'panel.example.com', 'https://panel.example.com')).statusCode).toBe(400);
    expect((await config(tls, 'panel.example.com')).statusCode).toBe(200);
    expect((await config(tls, '127.0.0.1:8080')).statusCode).toBe(200);
    expect((await signIn(tls, 'evil.test', 'https://panel.example.com')).statusCode).toBe(403);
    expect((await signIn(tls, 'evil.test', 'http://evil.test')).statusCode).toBe(403);
  });

  it('answers the addresses it listens on, when it listens beyond loopback', async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;
    const app = await openTestApp(kind);
    try {
      await app.app.listen({ host: '0.0.0.0', port: 0 });
      const port = (app.app.server.address() as { port: number }).port;
      const get = (host: string) =>
        new Promise<number>((resolve, reject) => {
          const req = httpRequest({ host: '127.0.0.1', port, path: '/p247/config/get/', headers: { host } }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', reject);
          req.end();
        });
      expect(await get(`127.0.0.1:${port}`)).toBe(200);
      if (external) expect(await get(`${external}:${port}`)).toBe(200);
      expect(await get(`203.0.113.9:${port}`)).toBe(403); // an address that is not ours
      expect(await get(`evil.test:${port}`)).toBe(403);
    } finally {
      await app.close();
    }
  });
});

describe('the check of Host names', () => {
  it('keeps its verdicts only until it looks its listening addresses up again, a minute on', () => {
    vi.useFakeTimers();
    try {
      let address = '10.0.0.5';
      const app = { runtime: { config: {} }, server: { address: () => ({ address, port: 80, family: 'IPv4' }) } };
      const isAllowed = allowedHosts(app as unknown as FastifyInstance);
      expect(isAllowed('10.0.0.5:80')).toBe(true);
      address = '10.0.0.6';
      vi.advanceTimersByTime(30_000);
      expect(isAllowed('10.0.0.5:80')).toBe(true);
      vi.advanceTimersByTime(31_000);
      expect(isAllowed('10.0.0.5:80')).toBe(false);
      expect(isAllowed('10.0.0.6:80')).toBe(true);
      expect(isAllowed('LOCALHOST.:80')).toBe(true);
      expect(isAllowed('evil.test')).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers each of many Host values on its own, however many a client sends', () => {
    const app = { runtime: { config: { publicOrigin: 'https://panel.example.com' } }, server: { address: () => null } };
    const isAllowed = allowedHosts(app as unknown as FastifyInstance);
    for (let i = 0; i < 500; i++) {
      expect(isAllowed(`evil${i}.test`)).toBe(false);
      expect(isAllowed(i % 2 ? 'panel.example.com' : `127.0.0.${i % 250}:8080`)).toBe(true);
    }
  });
});

describe('the start-up warning about names', () => {
  it('is printed when listening beyond loopback without publicOrigin, and only then', () => {
    expect(originWarning({ host: '0.0.0.0' })).toMatch(/without publicOrigin.*loopback names and its own IP addresses/s);
    expect(originWarning({ host: '::' })).toMatch(/publicOrigin/);
    expect(originWarning({ host: '192.0.2.4' })).toMatch(/publicOrigin/);
    expect(originWarning({ host: '0.0.0.0', publicOrigin: 'https://panel.example.com' })).toBeNull();
    expect(originWarning({ host: '127.0.0.1' })).toBeNull();
    expect(originWarning({ host: 'localhost' })).toBeNull();
    expect(originWarning({ host: '::1' })).toBeNull();
  });

  it('reads host names the way browsers send them', () => {
    expect(hostnameOf('Example.COM.:8080')).toBe('example.com');
    expect(hostnameOf('[::1]:8080')).toBe('::1');
    expect(hostnameOf('127.0.0.1')).toBe('127.0.0.1');
  });
});
