import { endpoint, itemParams, type Permission, parseLevels } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { route } from '../../src/http/route.ts';
import { createToken } from '../../src/modules/token/tokens.ts';
import { type Account, createAccount, send } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

const scope = (text: string) => {
  const parsed = parseLevels(text);
  if (!('map' in parsed)) throw new Error(text);
  return parsed.map;
};

/**
 * `route()` authorises every call from its entry in the endpoint table, before its handler runs:
 * these routes are declared as a real entry would be, and their handlers only answer what they
 * were handed, so every refusal below is the entry's doing.
 */
describeStores('a call authorised from its entry on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  let n = 0;
  const paths: Record<string, string> = {};
  /** Registers a GET declared with `permission` whose handler answers the access it was handed. */
  const declare = (name: string, permission: Permission) => {
    const path = `/test/entry${++n}/:id/`;
    const e = endpoint({ method: 'GET', path: `/p247${path}`, params: itemParams, answer: z.unknown(), permission });
    route(ctx.app, e, async (request) => {
      const access = request.access as { itemId: number; service?: { kind: string }; mail?: { item_id: number } };
      return { data: { itemId: access.itemId, service: access.service?.kind ?? null, mail: access.mail?.item_id ?? null } };
    });
    paths[name] = path;
  };
  const call = async (name: string, item: string, headers: Record<string, string>) =>
    send(ctx.app, 'GET', paths[name].replace(':id', String(acc.items[item])), headers);
  const status = async (name: string, item: string, username: string) => (await call(name, item, await acc.as(username))).status;
  const bearer = async (username: string, text: string) => {
    const spec = { name: 'script', scope: scope(text), items: null, cidrs: [], expiresAt: null };
    return { authorization: `Bearer ${(await createToken(ctx.store, acc.users[username], spec)).token}` };
  };

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    acc = await createAccount(ctx.store, {
      users: {
        owner: 'all=write',
        reader: 'all=read',
        ftp: 'service_ftp=write',
        noddbb: 'all=write,service_ddbb=read',
        nomail: 'all=write,servicemail=disabled',
      },
      items: [
        { reference: 'entry.test', domain: true, service: 'normal', mail: true },
        { reference: 'parked.test', domain: true, service: 'parking' },
      ],
    });
    declare('domainRead', { area: 'domain', level: 'read' });
    declare('domainWrite', { area: 'domain', level: 'write' });
    declare('ftpRead', { area: 'service_ftp', level: 'read' });
    declare('sites', { area: 'service_subdomains', level: 'read', normalOnly: true });
    declare('install', { area: 'service_subdomains', level: 'write', alsoWrite: ['service_ftp', 'service_ddbb'] });
    declare('mail', { area: 'servicemail_accounts', level: 'read' });
    declare('main', { anyOf: ['service', 'service_ftp'], level: 'read', tokenArea: 'service' });
  });
  afterAll(() => ctx.close());

  it('answers 404 when the area is hidden, 403 when write is needed and not held, and the handler runs otherwise', async () => {
    expect(await status('domainRead', 'entry.test', 'reader')).toBe(200);
    expect(await status('domainRead', 'entry.test', 'ftp')).toBe(404);
    expect(await status('domainWrite', 'entry.test', 'reader')).toBe(403);
    expect(await status('domainWrite', 'entry.test', 'owner')).toBe(200);
  });

  it('hands the handler the item it checked, with the row its areas belong to', async () => {
    const ftp = await call('ftpRead', 'entry.test', await acc.as('ftp'));
    expect(ftp.body.data).toEqual({ itemId: acc.items['entry.test'], service: 'normal', mail: null });
    const mail = await call('mail', 'entry.test', await acc.as('owner'));
    expect(mail.body.data).toEqual({ itemId: acc.items['entry.test'], service: null, mail: acc.items['entry.test'] });
  });

  it('answers 404 to a mail call when the mail area itself is hidden', async () => {
    expect(await status('mail', 'entry.test', 'nomail')).toBe(404);
  });

  it('answers 404 on a parking service to a call declared for normal services only', async () => {
    expect(await status('sites', 'entry.test', 'owner')).toBe(200);
    expect(await status('sites', 'parked.test', 'owner')).toBe(404);
  });

  it('answers 403 without write on an area the entry also needs', async () => {
    expect(await status('install', 'entry.test', 'owner')).toBe(200);
    expect(await status('install', 'entry.test', 'noddbb')).toBe(403);
  });

  it('opens an any-of call to a user with one of its areas, but to a token only with the area the entry names for tokens', async () => {
    expect(await status('main', 'entry.test', 'ftp')).toBe(200);
    expect((await call('main', 'entry.test', await bearer('owner', 'service_ftp=read'))).status).toBe(404);
    expect((await call('main', 'entry.test', await bearer('owner', 'service=read'))).status).toBe(200);
  });
});
