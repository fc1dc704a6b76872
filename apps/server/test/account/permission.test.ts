import { AREAS } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { grant } from '../../src/modules/provisioning/accounts.ts';
import { now } from '../../src/store/db.ts';
import { type Account, createAccount } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

describeStores('the permission calls on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  let foreign: Account;
  const expiry = now() + 100 * 86400;
  const one = async (username: string, id: number | string) =>
    ctx.app.inject({ method: 'POST', url: `/p247/permission/${id}/`, headers: await acc.as(username) });
  const list = async (username: string, account = acc) =>
    (await ctx.app.inject({ method: 'GET', url: '/p247/permission/list/', headers: await account.as(username) })).json().data;
  const all = (level: string) => Object.fromEntries(AREAS.map((a) => [a, level]));

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    acc = await createAccount(ctx.store, {
      users: { ana: 'all=write', luis: 'all=read', mailonly: 'servicemail=read', none: 'all=disabled' },
      items: [
        { reference: 'alpha.es', domain: true, service: 'normal', mail: true, expireAt: expiry },
        { reference: 'gamma.es', service: 'parking', expireAt: expiry },
        { reference: 'beta.es', domain: true, expireAt: expiry },
        { reference: 'delta.es', mail: true, expireAt: expiry },
      ],
    });
    foreign = await createAccount(ctx.store, { users: { eve: 'all=write' }, items: [{ reference: 'ajeno.es', domain: true }] });
  });
  afterAll(() => ctx.close());

  it('answers the full permission map, reference and breadcrumb expiry of an item', async () => {
    const res = await one('ana', acc.items['alpha.es']);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      id: acc.items['alpha.es'],
      reference: 'alpha.es',
      suspended: false,
      permissions: all('write'),
      hasDomain: true,
      hasService: true,
      hasMail: true,
      domain: { expireTS: expiry },
      service: { isRedirAndParking: false, expireTS: expiry },
      mail: { expireTS: expiry },
    });
  });

  it('marks a redirect-and-parking service and reports read levels as they are', async () => {
    const data = (await one('luis', acc.items['gamma.es'])).json().data;
    expect(data.permissions).toEqual(all('read'));
    expect(data).toMatchObject({
      hasDomain: false,
      hasService: true,
      service: { isRedirAndParking: true, expireTS: expiry },
      domain: { expireTS: null },
    });
  });

  it('fills areas not granted with disabled and hides the expiry of kinds the user cannot see', async () => {
    const data = (await one('mailonly', acc.items['alpha.es'])).json().data;
    expect(data.permissions).toEqual({ ...all('disabled'), servicemail: 'read' });
    expect(data).toMatchObject({
      hasDomain: false,
      hasService: false,
      hasMail: true,
      domain: { expireTS: null },
      service: { expireTS: null },
      mail: { expireTS: expiry },
    });
  });

  it.each([
    ['an item without any visible permission', 'none', () => acc.items['alpha.es']],
    ["another realm's item", 'ana', () => foreign.items['ajeno.es']],
    ['an unknown id', 'ana', () => 99999999],
    ['a malformed id', 'ana', () => '1e1'],
  ])('answers 404 for %s', async (_case, username, id) => {
    const res = await one(username, id());
    expect(res.statusCode).toBe(404);
    expect(res.json().system).toMatchObject({ valid: false, statusCode: 404 });
  });

  it('lists the items with at least one visible permission, by reference, with their kinds and expiry', async () => {
    const rows = await list('ana');
    expect(rows.map((r: { reference: string }) => r.reference)).toEqual(['alpha.es', 'beta.es', 'delta.es', 'gamma.es']);
    expect(rows[0]).toEqual({
      id: acc.items['alpha.es'],
      reference: 'alpha.es',
      hasDomain: true,
      hasService: true,
      hasMail: true,
      isRedirAndParking: false,
      domainExpireTS: expiry,
      serviceExpireTS: expiry,
      mailExpireTS: expiry,
    });
    expect(rows[3]).toMatchObject({
      reference: 'gamma.es',
      hasDomain: false,
      hasService: true,
      isRedirAndParking: true,
      domainExpireTS: null,
    });
    expect(await list('luis')).toEqual(rows);
  });

  it('lists only what a narrow grant shows, nothing for a user without visible permissions, nothing of another realm', async () => {
    // A visible mail permission on an item without mail lists the item, with no kind to show.
    const rows = await list('mailonly');
    expect(rows.map((r: { reference: string; hasMail: boolean; hasDomain: boolean }) => [r.reference, r.hasMail, r.hasDomain])).toEqual([
      ['alpha.es', true, false],
      ['beta.es', false, false],
      ['delta.es', true, false],
      ['gamma.es', false, false],
    ]);
    expect(await list('none')).toEqual([]);
    expect((await list('eve', foreign)).map((r: { id: number }) => r.id)).toEqual([foreign.items['ajeno.es']]);
  });

  it('applies a grant made from the CLI on the very next request, and a revocation too', async () => {
    expect((await one('none', acc.items['beta.es'])).statusCode).toBe(404);
    await grant(ctx.store, acc.realm, 'none', 'beta.es', { domain: 'read' });
    expect((await one('none', acc.items['beta.es'])).statusCode).toBe(200);
    expect((await list('none')).map((r: { reference: string }) => r.reference)).toEqual(['beta.es']);
    await grant(ctx.store, acc.realm, 'none', 'beta.es', { domain: 'disabled' });
    expect((await one('none', acc.items['beta.es'])).statusCode).toBe(404);
  });
});
