import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REDACTED } from '@atalaya/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printAudit } from '../../src/cli/activity.ts';
import { actorOf } from '../../src/http/actor.ts';
import { recordActivity } from '../../src/modules/activity/record.ts';
import { grant } from '../../src/modules/provisioning/accounts.ts';
import { cleanUp } from '../../src/store/housekeeping.ts';
import { login, sessionToken, withSession } from '../account/helpers.ts';
import { type Account, createAccount, type Loose, registerDomains, send, TEST_PASSWORD } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const DAY = 86_400;

describeStores('the activity log on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  let other: Account;
  let item: number;
  beforeAll(async () => {
    ctx = await openTestApp(kind);
    acc = await createAccount(ctx.store, {
      users: {
        w: 'all=write',
        dnsreader: { service_dnszone: 'read', service: 'read' },
        mailreader: { servicemail: 'read', servicemail_accounts: 'read' },
      },
      items: [{ reference: 'tienda.es', domain: true, service: 'normal', mail: true }],
    });
    other = await createAccount(ctx.store, {
      users: { o: 'all=write' },
      items: [{ reference: 'otra.es', domain: true, service: 'normal' }],
    });
    await registerDomains(ctx.app, acc);
    await registerDomains(ctx.app, other);
    item = acc.items['tienda.es'];
  });
  afterAll(() => ctx.close());

  /** A call from a browser at a given address, as the SPA makes it. */
  const call = async (method: 'GET' | 'POST', url: string, user: string, fields?: Record<string, string | string[]>, ip = '192.0.2.10') => {
    const headers = { ...(await acc.as(user)), 'user-agent': FIREFOX, 'content-type': 'application/x-www-form-urlencoded' };
    const body = fields
      ? new URLSearchParams(Object.entries(fields).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [`${k}[]`, x]) : [[k, v]])))
      : undefined;
    const res = await ctx.app.inject({ method, url: `/p247${url}`, headers, payload: body?.toString(), remoteAddress: ip });
    return { status: res.statusCode, body: res.json() as Loose };
  };
  const activity = async (user: string, query = '', account = acc) =>
    (await send(ctx.app, 'GET', `/activity/${query}`, await account.as(user))) as { status: number; body: Loose };
  const change = (event: Loose, field: string) => event.changes.find((c: Loose) => c.field === field);

  it('records a DNS record created with the user, the address, the item, the area and the new record', async () => {
    expect(
      (await call('POST', `/service/${item}/dns/create/`, 'w', { type: 'A', zona: 'tienda-web', value: '203.0.113.7', ttl: '3600' }))
        .status,
    ).toBe(200);
    const { body } = await activity('w', `?item=${item}&area=service_dnszone`);
    const event = body.data.events[0];
    expect(event).toMatchObject({
      actor: { kind: 'user', name: 'w' },
      ip: '192.0.2.10',
      agent: 'Firefox',
      item: { id: item, reference: 'tienda.es' },
      area: 'service_dnszone',
      action: 'dns.create',
      outcome: 'success',
    });
    expect(change(event, 'zona')).toEqual({ field: 'zona', before: null, after: 'tienda-web' });
    expect(change(event, 'value')).toEqual({ field: 'value', before: null, after: '203.0.113.7' });
  });

  it('records a DNS record changed as before → after, naming the record', async () => {
    const list = await call('GET', `/service/${item}/dns/list/`, 'w');
    const record = list.body.data.dnss.find((r: Loose) => r.zona === 'tienda-web');
    await call('POST', `/service/${item}/dns/${record.id}/save/`, 'w', { value: '203.0.113.8', ttl: '3600' });
    const event = (await activity('w', `?item=${item}&area=service_dnszone`)).body.data.events[0];
    expect(event.action).toBe('dns.save');
    expect(event.changes).toEqual([
      { field: 'zona', before: 'tienda-web', after: 'tienda-web' },
      { field: 'type', before: 'A', after: 'A' },
      { field: 'value', before: '203.0.113.7', after: '203.0.113.8' },
    ]);
  });

  it('records a mail account whose password changed, naming the account and never the password', async () => {
    const created = await call('POST', `/service/${item}/correo/create/`, 'w', { name: 'ventas', password: 'Primera-clave-1' });
    expect(created.status).toBe(200);
    const id = created.body.data.correo.id;
    expect((await call('POST', `/service/${item}/correo/${id}/changepassword/`, 'w', { password: 'Segunda-clave-2' })).status).toBe(200);
    const { body } = await activity('w', `?item=${item}&area=servicemail_accounts`);
    const [changed, made] = body.data.events;
    expect(changed).toMatchObject({
      action: 'service.mailChangePassword',
      area: 'servicemail_accounts',
      actor: { name: 'w' },
      ip: '192.0.2.10',
    });
    expect(changed.changes).toEqual([
      { field: 'account', before: 'ventas', after: 'ventas' },
      { field: 'password', before: REDACTED, after: REDACTED },
    ]);
    expect(change(made, 'password')).toEqual({ field: 'password', before: null, after: REDACTED });
    const stored = await ctx.store.selectFrom('audit_event').select(['changes', 'detail']).execute();
    expect(JSON.stringify(stored)).not.toMatch(/Primera-clave-1|Segunda-clave-2/);
  });

  it("records a domain's name servers changed, the old set before and the new after", async () => {
    const res = await call('POST', `/domain/${item}/dnsedit/`, 'w', { 'default-ns': '0', dns: ['ns1.externo.org', 'ns2.externo.org'] });
    expect(res.status).toBe(200);
    const event = (await activity('w', `?item=${item}&area=domain_dns`)).body.data.events[0];
    expect(event).toMatchObject({
      action: 'domain.saveNameServers',
      actor: { kind: 'user', name: 'w' },
      ip: '192.0.2.10',
      item: { reference: 'tienda.es' },
    });
    expect(event.changes).toEqual([
      { field: 'nameServers', before: 'ns1.example.net, ns2.example.net', after: 'ns1.externo.org, ns2.externo.org' },
    ]);
  });

  it('records a password change without the password, and only its owner reads it', async () => {
    const headers = { ...(await acc.as('w')), 'content-type': 'application/x-www-form-urlencoded', 'user-agent': CHROME };
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/p247/user/changepass/',
      headers,
      payload: new URLSearchParams({ actualPassword: TEST_PASSWORD, password: 'Una-clave-nueva-9' }).toString(),
      remoteAddress: '198.51.100.4',
    });
    expect(res.statusCode).toBe(200);
    const event = (await activity('w', '?area=account')).body.data.events[0];
    expect(event).toMatchObject({
      action: 'changepass',
      outcome: 'success',
      item: null,
      ip: '198.51.100.4',
      agent: 'Chrome',
      actor: { name: 'w' },
    });
    expect(event.changes).toEqual([{ field: 'password', before: REDACTED, after: REDACTED }]);
    const stored = await ctx.store.selectFrom('audit_event').select(['changes', 'detail']).execute();
    expect(JSON.stringify(stored)).not.toContain('Una-clave-nueva-9');
    expect(JSON.stringify(stored)).not.toContain(TEST_PASSWORD);
    expect((await activity('dnsreader', '?area=account')).body.data.events).toEqual([]);
  });

  it("shows a reader of one area that area's events and not another's", async () => {
    const dns = (await activity('dnsreader')).body.data.events;
    expect(dns.length).toBeGreaterThan(0);
    expect(new Set(dns.map((e: Loose) => e.area))).toEqual(new Set(['service_dnszone']));
    const mail = (await activity('mailreader')).body.data.events;
    expect(new Set(mail.map((e: Loose) => e.area))).toEqual(new Set(['servicemail_accounts']));
    // Asking for another area by name does not open it.
    expect((await activity('dnsreader', '?area=servicemail_accounts')).body.data).toEqual({ events: [], total: 0, page: 1 });
  });

  it("never shows another realm's events, even asked for by item", async () => {
    expect(
      (
        await send(ctx.app, 'POST', `/service/${other.items['otra.es']}/dns/create/`, await other.as('o'), {
          type: 'A',
          zona: 'ajena',
          value: '203.0.113.9',
        })
      ).status,
    ).toBe(200);
    expect((await activity('w', `?item=${other.items['otra.es']}`)).body.data.total).toBe(0);
    const mine = (await activity('w')).body.data.events;
    expect(mine.every((e: Loose) => e.item === null || e.item.id === item)).toBe(true);
    expect((await activity('o', '', other)).body.data.events.map((e: Loose) => e.item?.reference)).toEqual(['otra.es']);
  });

  it('pages by 10 on the server, newest first, with the total', async () => {
    for (let i = 0; i < 12; i++)
      await call('POST', `/service/${item}/dns/create/`, 'w', { type: 'TXT', zona: `pagina${i}`, value: `texto ${i}`, ttl: '3600' });
    const first = (await activity('w', `?item=${item}&area=service_dnszone`)).body.data;
    const second = (await activity('w', `?item=${item}&area=service_dnszone&page=2`)).body.data;
    expect(first.total).toBe(14);
    expect(first.events).toHaveLength(10);
    expect(second.events).toHaveLength(4);
    expect(change(first.events[0], 'zona').after).toBe('pagina11');
    expect(second.page).toBe(2);
    expect(new Set([...first.events, ...second.events].map((e: Loose) => e.id)).size).toBe(14);
    expect((await activity('w', `?item=${item}&area=service_dnszone&page=3`)).body.data.events).toEqual([]);
  });

  it('filters by actor: a username, a token name or cli', async () => {
    await recordActivity(ctx.store, {
      action: 'dns.create',
      realmId: (await ctx.store.selectFrom('user').select('realm_id').where('id', '=', acc.users.w).executeTakeFirstOrThrow()).realm_id,
      userId: acc.users.w,
      token: { id: 41, name: 'deploy-bot' },
      item: { id: item, reference: 'tienda.es' },
      area: 'service_dnszone',
      changes: [{ field: 'value', before: null, after: '203.0.113.50' }],
    });
    const bot = (await activity('w', '?actor=deploy-bot')).body.data;
    expect(bot.total).toBe(1);
    expect(bot.events[0].actor).toEqual({ kind: 'token', name: 'deploy-bot' });
    const byUser = (await activity('w', '?actor=W&area=service_dnszone')).body.data;
    expect(byUser.total).toBe(14);
    expect(byUser.events.every((e: Loose) => e.actor.kind === 'user')).toBe(true);
    expect((await activity('w', '?actor=nadie')).body.data.total).toBe(0);
  });

  it('filters by date range, both days included, and refuses a bad date or a reversed range under its field', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - DAY * 1000).toISOString().slice(0, 10);
    const all = (await activity('w')).body.data.total;
    expect((await activity('w', `?from=${today}&to=${today}`)).body.data.total).toBe(all);
    expect((await activity('w', `?to=${yesterday}`)).body.data.total).toBe(0);
    const bad = await activity('w', '?from=2026-13-01&language=en');
    expect(bad.status).toBe(400);
    expect(bad.body.system.inputs).toEqual(['from']);
    expect(bad.body.system.errors).toEqual(['Write the date as YYYY-MM-DD']);
    const reversed = await activity('w', `?from=${today}&to=${yesterday}&language=en`);
    expect(reversed.status).toBe(400);
    expect(reversed.body.system.inputs).toEqual(['to']);
    expect(reversed.body.system.errors).toEqual(['The end date cannot be before the start date']);
    const page = await activity('w', '?page=0&language=es');
    expect(page.body.system.errors).toEqual(['La página debe ser un número entero a partir de 1']);
  });

  it('answers an id no item can have with an empty page, and refuses an id that is not a number under its field', async () => {
    expect((await activity('w', '?item=9999999999')).body.data).toEqual({ events: [], total: 0, page: 1 });
    const bad = await activity('w', '?item=abc&language=en');
    expect(bad.status).toBe(400);
    expect(bad.body.system.inputs).toEqual(['item']);
    expect(bad.body.system.errors).toEqual(['Choose an item from the list']);
  });

  it('stops showing an area once its grant is disabled', async () => {
    expect((await activity('mailreader')).body.data.total).toBeGreaterThan(0);
    await grant(ctx.store, acc.realm, 'mailreader', 'tienda.es', { servicemail_accounts: 'disabled' });
    expect((await activity('mailreader')).body.data.total).toBe(0);
  });

  it('hides a failed sign-in that names no known user from every user', async () => {
    const res = await login(ctx, { domainName: acc.realm, username: 'nadie', password: 'not-the-password' }, {}, '203.0.113.99');
    expect(res.statusCode).toBe(401);
    for (const user of ['w', 'dnsreader', 'mailreader'])
      expect((await activity(user, '?area=account')).body.data.events.map((e: Loose) => e.ip)).not.toContain('203.0.113.99');
  });

  it('refuses a signed-out caller', async () => {
    expect((await send(ctx.app, 'GET', '/activity/', { 'x-dd-request': '1' })).body.system.statusCode).toBe(101);
  });

  it('prints the operator log as JSON lines, one realm and from one day on', async () => {
    const lines: string[] = [];
    await printAudit(ctx.store, { realm: other.realm }, (line) => lines.push(line));
    const events = lines.map((l) => JSON.parse(l));
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.realm === other.realm)).toBe(true);
    expect(events.at(-1)).toMatchObject({ action: 'dns.create', item: { reference: 'otra.es' }, actor: { kind: 'user', name: 'o' } });
    const tomorrow = new Date(Date.now() + DAY * 1000).toISOString().slice(0, 10);
    const none: string[] = [];
    await printAudit(ctx.store, { since: tomorrow }, (line) => none.push(line));
    expect(none).toEqual([]);
    await expect(printAudit(ctx.store, { since: '22-11-2026' }, () => {})).rejects.toThrow('--since must be a date as YYYY-MM-DD');
    await expect(printAudit(ctx.store, { realm: 'nowhere.test' }, () => {})).rejects.toThrow('No realm named');
  });

  it('deletes the lines older than the retention setting, and keeps the rest', async () => {
    const before = Number(
      (
        await ctx.store
          .selectFrom('audit_event')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    await recordActivity(ctx.store, { action: 'dns.create', realmId: null });
    await ctx.store
      .updateTable('audit_event')
      .set({ at: Math.floor(Date.now() / 1000) - 366 * DAY })
      .where('realm_id', 'is', null)
      .where('action', '=', 'dns.create')
      .execute();
    await ctx.store.transaction().execute((trx) => cleanUp(trx, 365));
    const after = Number(
      (
        await ctx.store
          .selectFrom('audit_event')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(after).toBe(before);
  });
});

describeStores('the new sign-in notice on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  beforeAll(async () => {
    ctx = await openTestApp(kind);
    acc = await createAccount(ctx.store, { users: { ana: 'all=read', sin: 'all=read' }, items: [{ reference: 'aviso.es', domain: true }] });
    await ctx.store
      .updateTable('user')
      .set({ email: 'ana@aviso.es', language: 'en', name: 'Ana' })
      .where('id', '=', acc.users.ana)
      .execute();
  });
  afterAll(() => ctx.close());

  const outbox = () => {
    const dir = path.join(ctx.config.dataDir, 'outbox');
    try {
      return readdirSync(dir).map((f) => readFileSync(path.join(dir, f), 'utf8'));
    } catch {
      return [];
    }
  };
  const signIn = async (ip: string, agent: string, username = 'ana') => {
    const res = await login(ctx, { domainName: acc.realm, username, password: TEST_PASSWORD }, { 'user-agent': agent }, ip);
    expect(res.statusCode).toBe(200);
    return sessionToken(res)!;
  };

  it('sends no notice at the first sign-in ever, nor from an address and browser already seen', async () => {
    await signIn('192.0.2.1', FIREFOX);
    await signIn('192.0.2.1', FIREFOX.replace('128.0', '129.0'));
    expect(outbox()).toEqual([]);
  });

  it("mails a notice, in the user's language, for a sign-in from a new address", async () => {
    await signIn('198.51.100.77', FIREFOX);
    const mails = outbox();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('To: ana@aviso.es');
    expect(mails[0]).toContain(`Subject: New sign-in to your account ana@${acc.realm}`);
    expect(mails[0]).toContain('198.51.100.77');
  });

  it('mails a notice for a known address with a new browser family, and none once both are known', async () => {
    await signIn('192.0.2.1', CHROME);
    expect(outbox()).toHaveLength(2);
    expect(outbox().join('\n')).toContain('Chrome');
    await signIn('198.51.100.77', CHROME);
    expect(outbox()).toHaveLength(2);
  });

  it('records each sign-in, and a failed one, for its user to read', async () => {
    const bad = await login(
      ctx,
      { domainName: acc.realm, username: 'ana', password: 'not-the-password' },
      { 'user-agent': FIREFOX },
      '203.0.113.66',
    );
    expect(bad.statusCode).toBe(401);
    const token = await signIn('192.0.2.1', FIREFOX);
    const { body } = await send(ctx.app, 'GET', '/activity/?area=account', withSession(token));
    const outcomes = body.data.events.map((e: Loose) => `${e.action}:${e.outcome}:${e.ip}`);
    expect(outcomes.slice(0, 2)).toEqual(['login:success:192.0.2.1', 'login:failure:203.0.113.66']);
    expect(body.data.total).toBe(7); // six sign-ins and the failed one
  });

  it('sends nothing to a user without an e-mail address', async () => {
    await signIn('192.0.2.1', FIREFOX, 'sin');
    await signIn('203.0.113.1', FIREFOX, 'sin');
    expect(outbox()).toHaveLength(2);
  });
});

describe('the actor of a call', () => {
  it('is the API token, with its id and name, when a token made the call, else the signed-in user', () => {
    const user = { id: 7, realmId: 3 };
    const base = { user, ip: '192.0.2.5', headers: { 'user-agent': FIREFOX } };
    expect(actorOf({ ...base, apiToken: { id: 12, name: 'deploy' } } as never)).toEqual({
      realmId: 3,
      userId: 7,
      actor: 'token',
      token: { id: 12, name: 'deploy' },
      ip: '192.0.2.5',
      agent: 'Firefox',
    });
    expect(actorOf(base as never)).toMatchObject({ actor: 'user', token: null, userId: 7 });
  });
});

describe('the redaction of secrets', () => {
  it('replaces every secret-looking field, whatever the caller passed', async () => {
    const ctx = await openTestApp('sqlite');
    try {
      await recordActivity(ctx.store, {
        action: 'x',
        changes: [
          { field: 'authcode', before: 'A1', after: 'B2' },
          { field: 'newPassword', before: null, after: 'p' },
          { field: 'certkey', before: null, after: '-----BEGIN PRIVATE KEY-----' },
          { field: 'zona', before: null, after: 'www' },
        ],
        detail: { password: 'p', domainName: 'a.es' },
      });
      const row = await ctx.store.selectFrom('audit_event').select(['changes', 'detail']).executeTakeFirstOrThrow();
      expect(JSON.parse(row.changes)).toEqual([
        { field: 'authcode', before: REDACTED, after: REDACTED },
        { field: 'newPassword', before: null, after: REDACTED },
        { field: 'certkey', before: null, after: REDACTED },
        { field: 'zona', before: null, after: 'www' },
      ]);
      expect(JSON.parse(row.detail)).toEqual({ domainName: 'a.es' });
    } finally {
      await ctx.close();
    }
  });
});
