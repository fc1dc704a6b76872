import { ALL_ENDPOINTS, autoFormSchema, type Endpoint, endpoints, isRawAnswer, parseLevels } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { createToken } from '../../src/modules/token/tokens.ts';
import { type Account, send } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { api, serviceAccount } from './helpers.ts';

/**
 * A call answers a working credential of an item when it is an item's call answering an auto-login
 * form or a `password` field at any depth (the installer's catalogue only names its form fields).
 */
const answersCredential = (e: Endpoint) =>
  ('area' in e.permission || 'anyOf' in e.permission) &&
  !isRawAnswer(e.answer) &&
  (e.answer === autoFormSchema || JSON.stringify(z.toJSONSchema(e.answer)).includes('"password"'));
const CREDENTIAL_CALLS = ALL_ENDPOINTS.filter(answersCredential);
const NAMES = new Map(Object.entries(endpoints.service).map(([name, e]) => [e as Endpoint, `service.${name}`]));

const PASSWORDS = { mail: 'Mail-secret-71', ftp: 'Ftp-secret-72', db: 'Db-secret-73' };

/**
 * Credentials only to those who may act (decision 029): every call that answers a password or an
 * auto-login form needs write on its area, never answers an API token, and is recorded in the
 * activity log like a change.
 */
describeStores('the calls that answer a credential on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  let id: number;
  const params: Record<string, number> = {};
  const urlOf = (e: Endpoint) =>
    e.path
      .replace(/:(\w+)/g, (_, name: string) => String(params[name]))
      .concat(e === endpoints.service.ftpLogin ? '?initialDirectory=' : '');
  const bearer = async (username: string, scope: string) => {
    const parsed = parseLevels(scope);
    if (!('map' in parsed)) throw new Error(scope);
    const spec = { name: 'script', scope: parsed.map, items: null, cidrs: [], expiresAt: null };
    return { authorization: `Bearer ${(await createToken(ctx.store, acc.users[username], spec)).token}` };
  };

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    acc = await serviceAccount(ctx);
    id = acc.items['tienda.test'];
    params.id = id;
    const made = [
      await api(ctx, acc, 'admin', `/service/${id}/correo/create/`, { name: 'buzon', password: PASSWORDS.mail }),
      await api(ctx, acc, 'admin', `/service/${id}/ftp/create/`, { ftpUser: 'subida', password: PASSWORDS.ftp, folder: 'web' }),
      await api(ctx, acc, 'admin', `/service/${id}/ddbb/create/`, { password: PASSWORDS.db }),
    ];
    for (const reply of made) expect(reply.status).toBe(200);
    const data = made.map((r) => r.body.data as Record<string, { id: number }>);
    params.accountId = data[0].correo.id;
    params.ftpId = data[1].ftp.id;
    params.dbId = data[2].ddbb.id;
  });
  afterAll(() => ctx.close());

  it('finds every such call in the endpoint table: the password views and the webmail, WebFTP and phpMyAdmin forms', () => {
    expect(CREDENTIAL_CALLS.map((e) => NAMES.get(e)).sort()).toEqual([
      'service.ddbbGet',
      'service.ddbbLogin',
      'service.ftpLogin',
      'service.mailLogin',
      'service.mailPassword',
    ]);
  });

  it('answers none to a user who may only read the area (403), nor anything to one who may not see it (404)', async () => {
    for (const e of CREDENTIAL_CALLS) {
      const reader = await api(ctx, acc, 'reader', urlOf(e));
      expect(reader.status, e.path).toBe(403);
      for (const password of Object.values(PASSWORDS)) expect(reader.raw, e.path).not.toContain(password);
      expect((await api(ctx, acc, 'nothing', urlOf(e))).status, e.path).toBe(404);
    }
  });

  it('answers none to an API token, read-only or even with write (403)', async () => {
    const readOnly = await bearer('admin', 'all=read');
    const writer = await bearer('admin', 'all=write');
    for (const e of CREDENTIAL_CALLS) {
      for (const headers of [readOnly, writer]) {
        const reply = await send(ctx.app, 'GET', urlOf(e), headers);
        expect(reply.status, e.path).toBe(403);
        for (const password of Object.values(PASSWORDS)) expect(reply.raw, e.path).not.toContain(password);
      }
    }
  });

  it('answers a writer in a browser session, and records each disclosure in the activity log without the password', async () => {
    for (const e of CREDENTIAL_CALLS) {
      const before = await ctx.store.selectFrom('audit_event').select('id').orderBy('id', 'desc').executeTakeFirst();
      const reply = await api(ctx, acc, 'admin', urlOf(e));
      expect(reply.status, e.path).toBe(200);
      expect(
        Object.values(PASSWORDS).some((p) => reply.raw.includes(p)),
        e.path,
      ).toBe(true);
      const events = await ctx.store
        .selectFrom('audit_event')
        .selectAll()
        .where('id', '>', before?.id ?? 0)
        .where('action', '=', NAMES.get(e)!)
        .execute();
      expect(events, e.path).toHaveLength(1);
      expect(events[0]).toMatchObject({ user_id: acc.users.admin, item_id: id, actor: 'user' });
      for (const password of Object.values(PASSWORDS)) expect(events[0].changes, e.path).not.toContain(password);
    }
  });
});
