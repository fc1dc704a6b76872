import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { grant } from '../../src/modules/provisioning/accounts.ts';
import { type Account, createAccount } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

/** Opens /p247/ws and collects its messages; `next` waits for one of a type. */
function connect(url: string, headers: Record<string, string>) {
  const socket = new WebSocket(url, { headers });
  const messages: string[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (data) => {
    messages.push(JSON.parse(String(data)).type);
    for (const w of waiters.splice(0)) w();
  });
  const next = (type: string, timeoutMs = 5000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "${type}" message; got ${JSON.stringify(messages)}`)), timeoutMs);
      const check = () => {
        const at = messages.indexOf(type);
        if (at >= 0) {
          messages.splice(at, 1);
          clearTimeout(timer);
          resolve();
        } else waiters.push(check);
      };
      check();
    });
  const refusal = new Promise<number>((resolve) => {
    socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.on('error', () => resolve(-1));
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  return { socket, messages, next, refusal, closed };
}

const CLI = path.resolve(import.meta.dirname, '../../src/cli/main.ts');

describeStores('the menu-refresh WebSocket on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  let origin: string;
  let url: string;

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    acc = await createAccount(ctx.store, {
      users: { ana: 'domain=read', luis: 'domain=read' },
      items: [{ reference: 'one.es', domain: true }],
    });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(ctx.app.server.address() as { port: number }).port}`;
    url = `${origin.replace('http', 'ws')}/p247/ws`;
  });
  afterAll(() => ctx.close());

  it('pushes {"type":"menu"} to that user only when accounts.grant() changes their permissions, and the next request sees it', async () => {
    const ana = connect(url, { cookie: (await acc.as('ana')).cookie, origin });
    const luis = connect(url, { cookie: (await acc.as('luis')).cookie, origin });
    await Promise.all([ana.next('ready'), luis.next('ready')]);
    await grant(ctx.store, acc.realm, 'ana', 'one.es', { domain: 'write' });
    await ana.next('menu');
    expect(luis.messages).toEqual([]);
    // The next request sees the change as well.
    const res = await ctx.app.inject({ method: 'POST', url: `/p247/permission/${acc.items['one.es']}/`, headers: await acc.as('ana') });
    expect(res.json().data.permissions.domain).toBe('write');
    ana.socket.close();
    luis.socket.close();
  });

  it('pushes {"type":"menu"} when the admin CLI, a separate process, grants a permission', async () => {
    const luis = connect(url, { cookie: (await acc.as('luis')).cookie, origin });
    await luis.next('ready');
    const env = { ...process.env, ATALAYA_DATA_DIR: ctx.config.dataDir, DATABASE_URL: ctx.config.databaseUrl ?? '' };
    await promisify(execFile)(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', CLI, 'grant', acc.realm, 'luis', 'one.es', 'domain_dns=read'],
      { env },
    );
    await luis.next('menu');
    luis.socket.close();
  });

  it('does not replay changes made before the socket opened', async () => {
    await grant(ctx.store, acc.realm, 'luis', 'one.es', { domain: 'read' });
    const luis = connect(url, { cookie: (await acc.as('luis')).cookie, origin });
    await luis.next('ready');
    await new Promise((r) => setTimeout(r, 1500));
    expect(luis.messages).toEqual([]);
    luis.socket.close();
  });

  it('closes the socket when its session ends', async () => {
    const headers = await acc.as('ana');
    const ana = connect(url, { cookie: headers.cookie, origin });
    await ana.next('ready');
    await ctx.app.inject({ method: 'POST', url: '/p247/user/logout/', headers });
    expect(await ana.closed).toBe(4001);
  });

  it('refuses a foreign Origin, a missing Origin and a missing session', async () => {
    const cookie = (await acc.as('ana')).cookie;
    expect(await connect(url, { cookie, origin: 'https://evil.example' }).refusal).toBe(403);
    expect(await connect(url, { cookie }).refusal).toBe(403);
    expect(await connect(url, { origin }).refusal).toBe(401);
    expect(await connect(url, { origin, cookie: 'atalaya_sid=forged' }).refusal).toBe(401);
  });
});
