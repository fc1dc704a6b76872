import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { setDisabled } from '../../src/modules/provisioning/accounts.ts';
import { createSession, deleteUserSessions, findSession, sessionTouches } from '../../src/modules/session/sessions.ts';
import { now, openStore } from '../../src/store/db.ts';
import { type Account, createAccount, TEST_PASSWORD } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { FORM, login, sessionToken, withSession } from './helpers.ts';

describeStores('sessions on %s', (kind) => {
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

  // Decision 015: the idle time-out counts from the last use, to the second, though the
  // store is not written on every request.
  describe('the idle time-out, exact', () => {
    const IDLE = 30 * 60;
    let t0: number;
    const at = async <T>(seconds: number, run: () => Promise<T>): Promise<T> => {
      vi.useFakeTimers({ toFake: ['Date'], now: t0 + seconds * 1000 });
      try {
        return await run();
      } finally {
        vi.useRealTimers();
      }
    };
    const stored = async (headers: Record<string, string>) =>
      (
        await ctx.store
          .selectFrom('session')
          .select('last_seen_at')
          .where('id', '=', await rowOf(tokenOf(headers)))
          .executeTakeFirstOrThrow()
      ).last_seen_at;
    const status = async (headers: Record<string, string>) => (await info(headers)).json().system.statusCode;

    it('keeps a session until exactly the idle time after its last use, without writing each use', async () => {
      t0 = Math.floor(Date.now() / 1000) * 1000;
      const headers = await at(0, () => acc.as('ana'));
      expect(await at(1, () => status(headers))).toBe(200);
      expect(await at(59, () => status(headers))).toBe(200);
      // Neither use was written: the store still holds the sign-in.
      expect(await stored(headers)).toBe(t0 / 1000);
      expect(await at(59 + IDLE, () => status(headers))).toBe(200);
    });

    it('ends it one second later', async () => {
      t0 = Math.floor(Date.now() / 1000) * 1000;
      const headers = await at(0, () => acc.as('ana'));
      expect(await at(59, () => status(headers))).toBe(200);
      expect(await at(59 + IDLE + 1, () => status(headers))).toBe(101);
    });

    it('keeps a session alive that another process used, once that process’s timer has written the use', async () => {
      t0 = Math.floor(Date.now() / 1000) * 1000;
      // One fake clock for the whole test: the other process's timer is created on it.
      vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: t0 });
      const store = await openStore(ctx.config);
      const other = await buildApp({ config: ctx.config, store, worker: false });
      try {
        const headers = await acc.as('ana');
        vi.setSystemTime(t0 + 1000);
        expect(await status(headers)).toBe(200); // this process knows the session
        vi.setSystemTime(t0 + 40_000);
        expect((await other.inject({ method: 'POST', url: '/p247/user/info/', headers })).statusCode).toBe(200);
        expect(await stored(headers)).toBe(t0 / 1000); // the other process has not written the use yet…
        await vi.advanceTimersByTimeAsync(30_000); // …until its timer runs (every 30 s at most)
        // The timer's write goes to the store over real I/O: wait for it (setTimeout is not faked).
        for (let i = 0; i < 100 && (await stored(headers)) !== t0 / 1000 + 40; i++) await new Promise((r) => setTimeout(r, 20));
        expect(await stored(headers)).toBe(t0 / 1000 + 40);
        vi.setSystemTime(t0 + (40 + IDLE) * 1000);
        expect(await status(headers)).toBe(200);
      } finally {
        vi.useRealTimers();
        await other.close();
        await store.destroy();
      }
    });

    it('writes a use still waiting in memory when the process that saw it closes', async () => {
      t0 = Math.floor(Date.now() / 1000) * 1000;
      vi.useFakeTimers({ toFake: ['Date'], now: t0 });
      const store = await openStore(ctx.config);
      const other = await buildApp({ config: ctx.config, store, worker: false });
      let open = true;
      try {
        const headers = await acc.as('ana');
        vi.setSystemTime(t0 + 40_000);
        expect((await other.inject({ method: 'POST', url: '/p247/user/info/', headers })).statusCode).toBe(200);
        expect(await stored(headers)).toBe(t0 / 1000); // kept in memory, under a minute after the stored use
        await other.close();
        open = false;
        expect(await stored(headers)).toBe(t0 / 1000 + 40);
      } finally {
        vi.useRealTimers();
        if (open) await other.close();
        await store.destroy();
      }
    });
  });

  it('keeps a session that is used within the idle time-out, past what the sign-in time alone would allow', async () => {
    const headers = await acc.as('ana');
    const start = Date.now();
    /** A call made `minutes` after the sign-in: its status code in the envelope (101 once signed out). */
    const callAt = async (minutes: number) => {
      vi.useFakeTimers({ toFake: ['Date'], now: start + minutes * 60_000 });
      try {
        return (await info(headers)).json().system.statusCode;
      } finally {
        vi.useRealTimers();
      }
    };
    // Each use within 30 minutes of the last keeps it alive: at 50 minutes the session is 20
    // minutes idle, though 50 minutes from its sign-in.
    expect(await callAt(25)).toBe(200);
    expect(await callAt(50)).toBe(200);
    expect(await callAt(75)).toBe(200);
    // Idle for 31 minutes after its last use: ended.
    expect(await callAt(75 + 31)).toBe(101);
  });

  it('keeps a session idle for exactly the idle time-out, and one exactly as old as the absolute one', async () => {
    const headers = await acc.as('ana');
    const id = await rowOf(tokenOf(headers));
    const t = now();
    await ctx.store
      .updateTable('session')
      .set({ created_at: t - 12 * 3600, last_seen_at: t - 30 * 60 })
      .where('id', '=', id)
      .execute();
    vi.useFakeTimers({ toFake: ['Date'], now: t * 1000 });
    try {
      expect((await info(headers)).statusCode).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps a use in memory at most a quarter of the idle time-out and at most a minute, written at least every 30 s', () => {
    const withIdle = (idleMinutes: number) => sessionTouches({ ...ctx.config, session: { ...ctx.config.session, idleMinutes } });
    expect(withIdle(30)).toMatchObject({ writeAfter: 60, flushEvery: 30 });
    expect(withIdle(1)).toMatchObject({ writeAfter: 15, flushEvery: 15 });
  });

  it('writes the last use at most once a minute', async () => {
    const headers = await acc.as('ana');
    const id = await rowOf(tokenOf(headers));
    const lastSeen = async () =>
      (await ctx.store.selectFrom('session').select('last_seen_at').where('id', '=', id).executeTakeFirstOrThrow()).last_seen_at;
    const start = await lastSeen();
    const callAt = async (seconds: number) => {
      vi.useFakeTimers({ toFake: ['Date'], now: (start + seconds) * 1000 });
      try {
        expect((await info(headers)).statusCode).toBe(200);
      } finally {
        vi.useRealTimers();
      }
    };
    await callAt(59);
    expect(await lastSeen()).toBe(start);
    await callAt(60);
    expect(await lastSeen()).toBe(start + 60);
  });

  it('answers an over-long or empty cookie as no session', async () => {
    expect((await info({ cookie: `atalaya_sid=${'a'.repeat(101)}`, 'x-dd-request': '1' })).json().system.statusCode).toBe(101);
    expect((await info({ cookie: 'atalaya_sid=', 'x-dd-request': '1' })).json().system.statusCode).toBe(101);
  });

  it('ends a session older than the absolute time-out even while in use', async () => {
    const headers = await acc.as('ana');
    const id = await rowOf(tokenOf(headers));
    await ctx.store
      .updateTable('session')
      .set({ created_at: now() - 12 * 3600 - 1, last_seen_at: now() })
      .where('id', '=', id)
      .execute();
    expect((await info(headers)).json().system.statusCode).toBe(101);
  });

  it('ends the session of a user disabled behind the panel’s back, as by another process', async () => {
    const other = await createAccount(ctx.store, { users: { eva: 'all=write' }, items: [{ reference: 'eva.es', domain: true }] });
    const headers = await other.as('eva');
    expect((await info(headers)).statusCode).toBe(200);
    // Straight into the store: setDisabled would also delete the sessions, hiding this check.
    await ctx.store.updateTable('user').set({ disabled: 1 }).where('id', '=', other.users.eva).execute();
    expect((await info(headers)).json().system.statusCode).toBe(101);
    expect(await ctx.store.selectFrom('session').select('id').where('user_id', '=', other.users.eva).execute()).toEqual([]);
  });

  it('ends every session of a realm once the realm is disabled', async () => {
    const other = await createAccount(ctx.store, {
      users: { eva: 'all=write', leo: 'all=read' },
      items: [{ reference: 'off.es', domain: true }],
    });
    const eva = await other.as('eva');
    const leo = await other.as('leo');
    expect((await info(eva)).statusCode).toBe(200);
    expect((await info(leo)).statusCode).toBe(200);
    await setDisabled(ctx.store, { realm: other.realm }, true);
    expect((await info(eva)).json().system.statusCode).toBe(101);
    expect((await info(leo)).json().system.statusCode).toBe(101);
    // Enabling the realm again does not bring the ended sessions back.
    await setDisabled(ctx.store, { realm: other.realm }, false);
    expect((await info(eva)).json().system.statusCode).toBe(101);
  });

  it('deletes the session at sign-out and clears the cookie', async () => {
    const headers = await acc.as('ana');
    const res = await ctx.app.inject({ method: 'POST', url: '/p247/user/logout/?language=en', headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().system.info).toEqual(['Signed out']);
    const cleared = res.cookies.find((c) => c.name === 'atalaya_sid')!;
    expect(cleared.value).toBe('');
    expect(new Date(cleared.expires!).getTime()).toBeLessThan(Date.now());
    expect(
      await ctx.store
        .selectFrom('session')
        .select('id')
        .where('id', '=', await rowOf(tokenOf(headers)))
        .executeTakeFirst(),
    ).toBeUndefined();
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

  it('ends every session of one user at once, and no one else’s', async () => {
    const other = await createAccount(ctx.store, {
      users: { eva: 'all=write', leo: 'all=write' },
      items: [{ reference: 'both.es', domain: true }],
    });
    const [eva1, eva2, leo] = [await other.as('eva'), await other.as('eva'), await other.as('leo')];
    await deleteUserSessions(ctx.store, other.users.eva);
    expect((await info(eva1)).json().system.statusCode).toBe(101);
    expect((await info(eva2)).json().system.statusCode).toBe(101);
    expect((await info(leo)).statusCode).toBe(200);
  });

  it('finds a session without a cache as with one, and ends an expired one all the same', async () => {
    const token = await createSession(ctx.store, acc.users.ana, '192.0.2.44');
    expect(await findSession(ctx.store, ctx.config, token)).toMatchObject({ id: acc.users.ana, username: 'ana', realmName: acc.realm });
    const row = await ctx.store
      .selectFrom('session')
      .select('ip')
      .where('id', '=', await rowOf(token))
      .executeTakeFirstOrThrow();
    expect(row.ip).toBe('192.0.2.44');
    await ctx.store
      .updateTable('session')
      .set({ last_seen_at: now() - 31 * 60 })
      .where('id', '=', await rowOf(token))
      .execute();
    expect(await findSession(ctx.store, ctx.config, token)).toBeNull();
    expect(await findSession(ctx.store, ctx.config, undefined)).toBeNull();
  });

  it('starts sessions with 256-bit random ids and keeps only their hash in the store', async () => {
    const token = await createSession(ctx.store, acc.users.ana);
    expect(
      (
        await ctx.store
          .selectFrom('session')
          .select('ip')
          .where('id', '=', await rowOf(token))
          .executeTakeFirstOrThrow()
      ).ip,
    ).toBe('');
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

  it('marks the cookie Secure behind a trusted proxy that says https, and only then', async () => {
    const proxied = await openTestApp(kind, { trustProxy: true });
    try {
      const other = await createAccount(proxied.store, { users: { ana: 'all=write' }, items: [{ reference: 'shop.es', domain: true }] });
      const as = { domainName: other.realm, username: 'ana', password: TEST_PASSWORD };
      const cookieOf = (res: Awaited<ReturnType<typeof login>>) => res.cookies.find((c) => c.name === 'atalaya_sid');
      const https = await login(proxied, as, { 'x-forwarded-proto': 'https' }, '10.3.0.1');
      expect(https.statusCode).toBe(200);
      expect(cookieOf(https)).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict' });
      // Signing out over the same proxy clears it with the same attributes, Secure included.
      const out = await proxied.app.inject({
        method: 'POST',
        url: '/p247/user/logout/',
        headers: { ...withSession(cookieOf(https)!.value), 'x-forwarded-proto': 'https' },
      });
      expect(cookieOf(out as never)).toMatchObject({ value: '', secure: true });
      expect(cookieOf(await login(proxied, as, { 'x-forwarded-proto': 'http' }, '10.3.0.1'))!.secure).toBeFalsy();
    } finally {
      await proxied.close();
    }
    // Without trustProxy the header is anyone's to send: it is not believed.
    const direct = await login(
      ctx,
      { domainName: acc.realm, username: 'ana', password: TEST_PASSWORD },
      { 'x-forwarded-proto': 'https' },
      '10.3.0.2',
    );
    expect(direct.cookies.find((c) => c.name === 'atalaya_sid')!.secure).toBeFalsy();
  });

  it('answers a call made with a signed-in cookie as that user only', async () => {
    const token = sessionToken(await login(ctx, { domainName: acc.realm, username: 'ana', password: TEST_PASSWORD }, {}, '10.9.9.9'))!;
    const res = await ctx.app.inject({ method: 'POST', url: '/p247/user/info/', headers: { ...withSession(token), ...FORM } });
    expect(res.json().data).toMatchObject({ user: 'ana', domainName: acc.realm });
  });
});
