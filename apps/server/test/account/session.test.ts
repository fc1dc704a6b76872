import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSession } from '../../src/modules/session/sessions.ts';
import { now } from '../../src/store/db.ts';
import { type Account, createAccount, TEST_PASSWORD } from '../fixtures.ts';
import { openTestApp, STORE_KINDS, type TestContext } from '../stores.ts';
import { FORM, login, sessionToken, withSession } from './helpers.ts';

describe.each(STORE_KINDS)('sessions on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  const info = (headers: Record<string, string>) => ctx.app.inject({ method: 'POST', url: '/p247/user/info/', headers });
  const tokenOf = (headers: Record<string, string>) => headers.cookie.split('=')[1];
  // The store keeps the SHA-256 of the token, never the token.
  const rowOf = async (token: string) => createHash('sha256').update(token).digest('base64url');

  beforeAll(async () => {
    ctx = await openTestApp(kind, { 'session.idleMinutes': 30, 'session.absoluteHours': 12 });
    acc = await createAccount(ctx.store, { users: { ana: 'all=write' }, items: [{ reference: 'shop.es', domain: true }] });
  });
  afterAll(() => ctx.close());

  it.each([
    ['POST', '/p247/user/info/'],
    ['POST', '/p247/user/preferences/'],
    ['POST', '/p247/user/changepass/'],
    ['GET', '/p247/permission/list/'],
    ['POST', '/p247/permission/1/'],
    ['POST', '/p247/contactmail/'],
  ] as const)('answers %s %s without a session with statusCode 101 (HTTP 401)', async (method, url) => {
    const res = await ctx.app.inject({ method, url, headers: { 'x-dd-request': '1' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().system).toMatchObject({ valid: false, statusCode: 101 });
  });

  it('ends a session idle for longer than the idle time-out, and deletes it', async () => {
    const headers = await acc.as('ana');
    expect((await info(headers)).statusCode).toBe(200);
    const id = await rowOf(tokenOf(headers));
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (30 * 60 + 1) * 1000 });
    try {
      expect((await info(headers)).json().system.statusCode).toBe(101);
    } finally {
      vi.useRealTimers();
    }
    expect(await ctx.store.selectFrom('session').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
  });

  it('keeps a session that is used within the idle time-out', async () => {
    const headers = await acc.as('ana');
    const id = await rowOf(tokenOf(headers));
    await ctx.store.updateTable('session').set({ last_seen_at: now() - 29 * 60 }).where('id', '=', id).execute();
    expect((await info(headers)).statusCode).toBe(200);
  });

  it('ends a session older than the absolute time-out even while in use', async () => {
    const headers = await acc.as('ana');
    const id = await rowOf(tokenOf(headers));
    await ctx.store.updateTable('session').set({ created_at: now() - 12 * 3600 - 1, last_seen_at: now() }).where('id', '=', id).execute();
    expect((await info(headers)).json().system.statusCode).toBe(101);
  });

  it('deletes the session at sign-out and clears the cookie', async () => {
    const headers = await acc.as('ana');
    const res = await ctx.app.inject({ method: 'POST', url: '/p247/user/logout/?language=en', headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().system.info).toEqual(['Signed out']);
    const cleared = res.cookies.find((c) => c.name === 'atalaya_sid')!;
    expect(cleared.value).toBe('');
    expect(new Date(cleared.expires!).getTime()).toBeLessThan(Date.now());
    expect(await ctx.store.selectFrom('session').select('id').where('id', '=', await rowOf(tokenOf(headers))).executeTakeFirst()).toBeUndefined();
    expect((await info(headers)).json().system.statusCode).toBe(101);
    const audit = await ctx.store.selectFrom('audit_event').select('outcome').where('action', '=', 'logout').execute();
    expect(audit).toEqual([{ outcome: 'success' }]);
  });

  it('signs out an already expired session without opening the login modal, but needs the CSRF header', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/p247/user/logout/', headers: { 'x-dd-request': '1' } });
    expect(res.statusCode).toBe(200);
    const noHeader = await ctx.app.inject({ method: 'POST', url: '/p247/user/logout/', headers: { cookie: (await acc.as('ana')).cookie } });
    expect(noHeader.statusCode).toBe(403);
  });

  it('starts sessions with 256-bit random ids and keeps only their hash in the store', async () => {
    const token = await createSession(ctx.store, acc.users.ana);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const rows = await ctx.store.selectFrom('session').select('id').where('user_id', '=', acc.users.ana).execute();
    expect(rows.map((r) => r.id)).not.toContain(token);
    expect(rows.map((r) => r.id)).toContain(await rowOf(token));
  });

  it('marks the cookie Secure when the panel is served over TLS', async () => {
    const tls = await openTestApp(kind, { publicOrigin: 'https://panel.example' });
    try {
      const other = await createAccount(tls.store, { users: { ana: 'all=write' }, items: [{ reference: 'shop.es', domain: true }] });
      const res = await login(tls, { domainName: other.realm, username: 'ana', password: TEST_PASSWORD });
      expect(res.statusCode).toBe(200);
      expect(res.cookies.find((c) => c.name === 'atalaya_sid')).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict' });
    } finally {
      await tls.close();
    }
  });

  it('answers a call made with a signed-in cookie as that user only', async () => {
    const token = sessionToken(await login(ctx, { domainName: acc.realm, username: 'ana', password: TEST_PASSWORD }, {}, '10.9.9.9'))!;
    const res = await ctx.app.inject({ method: 'POST', url: '/p247/user/info/', headers: { ...withSession(token), ...FORM } });
    expect(res.json().data).toMatchObject({ user: 'ana', domainName: acc.realm });
  });
});
