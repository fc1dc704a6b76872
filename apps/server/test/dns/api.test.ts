import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser, grant, parsePermissionMap } from '../../src/modules/provisioning/accounts.ts';
import { createSession } from '../../src/modules/session/sessions.ts';
import { createAccount, TEST_PASSWORD } from '../fixtures.ts';
import { describeStores } from '../stores.ts';
import { type DnsTest, openDnsTest, refusal } from './helpers.ts';

describeStores('the DNS zone calls on %s', (kind) => {
  let t: DnsTest;
  beforeAll(async () => {
    t = await openDnsTest(kind);
  });
  afterAll(() => t.ctx.close());

  it('lists the provider template on first visit, with the apex NS from the config', async () => {
    const list = await t.list();
    expect(list.filter((r) => r.type === 'NS').map((r) => r.value)).toEqual(['ns1.atalaya.test.', 'ns2.atalaya.test.']);
    const mx = list.find((r) => r.type === 'MX')!;
    expect(mx).toMatchObject({
      zona: '',
      reference: 'zona.es',
      priority: 10,
      value: 'mail.zona.es.',
      dynamicValue: 'mail.{zone}.',
      eliminable: true,
    });
    expect(list.find((r) => r.type === 'A')!.priority).toBeNull();
  });

  it('creates a record, answers it under dns with a job, and applies it through the outbox', async () => {
    const reply = await t.create({ type: 'A', zona: 'web', value: '203.0.113.7', ttl: 600 });
    expect(reply.status).toBe(200);
    expect(reply.body.data.dns).toMatchObject({
      zona: 'web',
      type: 'A',
      reference: 'web.zona.es',
      ttl: 600,
      value: '203.0.113.7',
      eliminable: true,
    });
    expect(reply.body.system.info[0]).toBe('Registro creado');
    expect(reply.body.system.job).toBeGreaterThan(0);
    await t.ctx.app.runtime.outbox.drain();
    const zone = await t.ctx.store.selectFrom('dns_zone').selectAll().where('item_id', '=', t.id).executeTakeFirstOrThrow();
    expect(zone.applied_version).toBe(zone.version);
    expect(JSON.parse(zone.served!)).toContainEqual({ name: 'web.zona.es.', type: 'A', ttl: 600, contents: ['203.0.113.7'] });
  });

  it('reads, saves and deletes one record, and answers the confirmation first', async () => {
    const { dns } = (await t.create({ type: 'MX', zona: 'sub', value: 'mx.example.net', ttl: 0 })).body.data;
    expect(dns.priority).toBe(20);
    expect((await t.get(`${dns.id}/`)).body.data.dns).toEqual(dns);
    const saved = await t.post(`${dns.id}/save/`, { value: 'mx2.example.net.', ttl: 3600, priority: 5 });
    expect(saved.body.data.dns).toMatchObject({ value: 'mx2.example.net.', ttl: 3600, priority: 5 });
    const deleted = await t.get(`${dns.id}/delete/`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.system.info[0]).toBe('Registro eliminado');
    expect((await t.get(`${dns.id}/`)).status).toBe(404);
  });

  it('refuses type names outside the enum and stores nothing', async () => {
    for (const type of ["A'", "TXT';touch /tmp/p;#", 'a', 'SOA', 'PTR', '']) {
      expect(refusal(await t.create({ type, zona: 'x', value: '1.2.3.4' }))).toEqual({ status: 400, inputs: ['type'] });
    }
    expect((await t.list()).some((r) => r.zona === 'x')).toBe(false);
  });

  it.each([
    ['A', '1.2.3', 'value'],
    ['A', '256.1.1.1', 'value'],
    ['A', '01.2.3.4', 'value'],
    ['A', '2001:db8::1', 'value'],
    ['AAAA', '1.2.3.4', 'value'],
    ['AAAA', '2001:db8:::1', 'value'],
    ['CNAME', 'not a host', 'value'],
    ['CNAME', 'single', 'value'],
    ['NS', 'ns_1.example.net', 'value'],
    ['MX', '-bad.example.net', 'value'],
    ['ANAME', 'a..b.es', 'value'],
    ['SRV', '5 5060', 'value'],
    ['SRV', '5 70000 sip.example.net', 'value'],
    ['SRV', 'x 5060 sip.example.net', 'value'],
    ['CAA', '0 issue', 'value'],
    ['CAA', '256 issue "ca.example"', 'value'],
    ['CAA', '0 issuer "ca.example"', 'value'],
    ['CAA', '0 iodef "not a url"', 'value'],
    ['CAA', '0 iodef "ftp://x.es"', 'value'],
    ['CAA', '0 issue "bad ca"', 'value'],
    ['TXT', 'x'.repeat(4097), 'value'],
    ['TXT', '', 'value'],
  ])('refuses %s with value %j on %s', async (type, value, field) => {
    const zona = type === 'SRV' ? '_sip._tcp' : 'v';
    expect(refusal(await t.create({ type, zona, value }))).toEqual({ status: 400, inputs: [field] });
  });

  it.each([
    ['ttl', { ttl: 601 }],
    ['ttl', { ttl: 'abc' }],
    ['priority', { priority: 7 }],
    ['priority', { priority: -1 }],
  ])('refuses a %s outside the offered list', async (field, extra) => {
    expect(refusal(await t.create({ type: 'MX', zona: 'p', value: 'mx.example.net', ...extra }))).toEqual({ status: 400, inputs: [field] });
  });

  it('names the allowed values when a TTL or a priority is outside the list', async () => {
    const ttl = await t.create({ type: 'MX', zona: 'p', value: 'mx.example.net', ttl: 601, language: 'en' });
    expect(ttl.body.system.errors).toEqual(['Choose a TTL from the list: 0 (default), 600, 1800, 3600, 21600, 43200 or 86400 seconds']);
    const priority = await t.create({ type: 'MX', zona: 'p', value: 'mx.example.net', priority: 7, language: 'en' });
    expect(priority.body.system.errors).toEqual([
      'Choose a priority from the list: 0, 1, 5, 10, 15, 20, 30, 40, 50, 60, 70, 80, 90 or 100',
    ]);
  });

  it('takes TTL 0 as the provider default and MX/SRV priority from the list, default 20', async () => {
    const mx = (await t.create({ type: 'MX', zona: 'prio', value: 'mx.example.net', priority: 100 })).body.data.dns;
    expect(mx).toMatchObject({ ttl: 0, priority: 100 });
    const a = (await t.create({ type: 'A', zona: 'prio', value: '192.0.2.1', priority: 10 })).body.data.dns;
    expect(a.priority).toBeNull();
  });

  it.each([
    ['a'.repeat(64), 'dns.label_too_long'],
    [Array(70).fill('abc').join('.'), 'dns.name_too_long'],
    ['www.otra.es.', 'dns.outside_zone'],
    ['a.*', 'dns.wildcard'],
    ['bad name', 'dns.name_invalid'],
    ['a..b', 'dns.name_invalid'],
    ['x;rm', 'dns.name_invalid'],
  ])('refuses the name %j', async (zona) => {
    expect(refusal(await t.create({ type: 'TXT', zona, value: 'hi' }))).toEqual({ status: 400, inputs: ['zona'] });
  });

  it('reads IDN names and hosts as punycode, absolute names inside the zone as relative', async () => {
    const a = (await t.create({ type: 'A', zona: 'ñandú', value: '192.0.2.2' })).body.data.dns;
    expect(a).toMatchObject({ zona: 'ñandú', reference: 'ñandú.zona.es', referencePunycode: 'xn--and-6ma2c.zona.es' });
    const c = (await t.create({ type: 'CNAME', zona: 'tienda.zona.es.', value: 'müller.de' })).body.data.dns;
    expect(c).toMatchObject({ zona: 'tienda', value: 'xn--mller-kva.de.' });
    expect((await t.create({ type: 'A', zona: '_x', value: '192.0.2.3' })).body.system.inputs).toEqual(['zona']);
  });

  it('keeps a CNAME alone at its name and away from the apex', async () => {
    expect(refusal(await t.create({ type: 'CNAME', zona: '@', value: 'x.example.net' }))).toEqual({ status: 400, inputs: ['zona'] });
    await t.create({ type: 'CNAME', zona: 'alias', value: 'x.example.net' });
    expect(refusal(await t.create({ type: 'TXT', zona: 'alias', value: 'no' }))).toEqual({ status: 400, inputs: ['zona'] });
    expect(refusal(await t.create({ type: 'CNAME', zona: 'alias', value: 'y.example.net' }))).toEqual({ status: 400, inputs: ['zona'] });
    await t.create({ type: 'A', zona: 'host', value: '192.0.2.4' });
    expect(refusal(await t.create({ type: 'CNAME', zona: 'host', value: 'x.example.net' }))).toEqual({ status: 400, inputs: ['zona'] });
  });

  it('keeps an ANAME apart from A, AAAA and other ANAME records at its name', async () => {
    expect((await t.create({ type: 'A', zona: 'edge', value: '192.0.2.10' })).status).toBe(200);
    expect(refusal(await t.create({ type: 'ANAME', zona: 'edge', value: 'cdn.example.net' }))).toEqual({ status: 400, inputs: ['zona'] });
    expect((await t.create({ type: 'ANAME', zona: 'cdn', value: 'cdn.example.net' })).status).toBe(200);
    for (const [type, value] of [
      ['A', '192.0.2.11'],
      ['AAAA', '2001:db8::11'],
      ['ANAME', 'other.example.net'],
    ]) {
      const reply = await t.create({ type, zona: 'cdn', value, language: 'en' });
      expect(refusal(reply), type).toEqual({ status: 400, inputs: ['zona'] });
    }
    // Other types may share the name.
    expect((await t.create({ type: 'TXT', zona: 'cdn', value: 'shared' })).status).toBe(200);
    expect((await t.create({ type: 'AAAA', zona: 'edge', value: '2001:db8::10' })).status).toBe(200);
  });

  it('refuses duplicates, also when edited into one', async () => {
    const first = (await t.create({ type: 'TXT', zona: 'dup', value: 'one' })).body.data.dns;
    expect(refusal(await t.create({ type: 'TXT', zona: 'dup', value: 'one' }))).toEqual({ status: 400, inputs: ['value'] });
    const second = (await t.create({ type: 'TXT', zona: 'dup', value: 'two' })).body.data.dns;
    expect(refusal(await t.post(`${second.id}/save/`, { value: 'one', ttl: 0 }))).toEqual({ status: 400, inputs: ['value'] });
    expect((await t.post(`${first.id}/save/`, { value: 'one', ttl: 600 })).status).toBe(200);
  });

  it('gives every record of a name and type the TTL last set', async () => {
    await t.create({ type: 'A', zona: 'rr', value: '192.0.2.5', ttl: 600 });
    await t.create({ type: 'A', zona: 'rr', value: '192.0.2.6', ttl: 3600 });
    expect((await t.list()).filter((r) => r.zona === 'rr').map((r) => r.ttl)).toEqual([3600, 3600]);
  });

  it('keeps delegations clean: nothing at or below a delegated name but NS', async () => {
    expect((await t.create({ type: 'NS', zona: 'deleg', value: 'ns.example.net' })).status).toBe(200);
    expect(refusal(await t.create({ type: 'A', zona: 'x.deleg', value: '192.0.2.7' }))).toEqual({ status: 400, inputs: ['zona'] });
    expect(refusal(await t.create({ type: 'TXT', zona: 'deleg', value: 'x' }))).toEqual({ status: 400, inputs: ['zona'] });
    expect(refusal(await t.create({ type: 'NS', zona: 'host', value: 'ns.example.net' }))).toEqual({ status: 400, inputs: ['zona'] });
  });

  it('wants an address for an in-zone name server, and keeps it while needed', async () => {
    expect(refusal(await t.create({ type: 'NS', zona: '', value: 'ns3.zona.es' }))).toEqual({ status: 400, inputs: ['value'] });
    const a = (await t.create({ type: 'A', zona: 'ns3', value: '192.0.2.53' })).body.data.dns;
    expect((await t.create({ type: 'NS', zona: '', value: 'ns3.zona.es' })).status).toBe(200);
    expect((await t.list()).find((r) => r.id === a.id)!.eliminable).toBe(false);
    expect((await t.get(`${a.id}/delete/`)).status).toBe(409);
  });

  it('SRV: name _service._protocol inside the zone, value weight port target, priority apart', async () => {
    const srv = (await t.create({ type: 'SRV', zona: '_sip._tcp', value: '5 5060 sip.example.net', priority: 10 })).body.data.dns;
    expect(srv).toMatchObject({ reference: '_sip._tcp.zona.es', priority: 10, value: '5 5060 sip.example.net.' });
    expect((await t.create({ type: 'SRV', zona: '_custom._udp.voz', value: '0 5060 sip.example.net' })).body.data.dns.priority).toBe(20);
    for (const zona of ['sip._tcp', '_sip._sctp', '_sip', 'www']) {
      expect(refusal(await t.create({ type: 'SRV', zona, value: '5 5060 sip.example.net' }))).toEqual({ status: 400, inputs: ['zona'] });
    }
  });

  it('CAA: flag 0-255, tag issue/issuewild/iodef, the text quoted', async () => {
    const caa = await t.create({ type: 'CAA', zona: '', value: '128 issuewild "LetsEncrypt.org; accounturi=https://x/Y"' });
    expect(caa.body.data.dns.value).toBe('128 issuewild "letsencrypt.org; accounturi=https://x/Y"');
    expect((await t.create({ type: 'CAA', zona: '', value: '0 iodef "mailto:sec@zona.es"' })).status).toBe(200);
    expect((await t.create({ type: 'CAA', zona: '', value: '0 issue ";"' })).body.data.dns.value).toBe('0 issue ";"');
  });

  it('TXT: any text, quotes and backslashes included, listed byte for byte', async () => {
    const text = `v="1" \\ back; ñ 😀 \t ${'z'.repeat(600)}`;
    const txt = (await t.create({ type: 'TXT', zona: 'txt', value: text })).body.data.dns;
    expect(txt.value).toBe(text);
  });

  it('never lets the last apex NS go, and reports it as not eliminable', async () => {
    const ns = (await t.list()).filter((r) => r.type === 'NS' && r.zona === '' && r.value.endsWith('atalaya.test.'));
    expect((await t.get(`${ns[0].id}/delete/`)).status).toBe(200);
    const left = (await t.list()).filter((r) => r.type === 'NS' && r.zona === '');
    expect(left.length).toBe(2); // ns2 + ns3.zona.es
    expect((await t.get(`${left[0].id}/delete/`)).status).toBe(200);
    const last = (await t.list()).find((r) => r.type === 'NS' && r.zona === '')!;
    expect(last.eliminable).toBe(false);
    const refused = await t.get(`${last.id}/delete/`);
    expect(refused.status).toBe(409);
    expect(refused.body.system.errors[0]).toMatch(/último registro NS/);
  });

  it('asks to confirm deleting every record, naming what stops working, and changes nothing until then', async () => {
    const before = await t.list();
    const reply = await t.get('delete/');
    expect(reply.status).toBe(409);
    expect(reply.body.system.errors[0]).toMatch(/la web y el correo del dominio dejarán de funcionar/);
    expect(await t.list()).toEqual(before);
  });

  it('deletes all eliminable records in one go, keeping the apex NS set and its glue', async () => {
    const reply = await t.get('delete/?confirm=1');
    expect(reply.body.system.info[0]).toMatch(/eliminables/);
    const left = await t.list();
    expect(left.every((r) => (r.type === 'NS' && r.zona === '') || (r.type === 'A' && r.zona === 'ns3'))).toBe(true);
  });

  it('restores the provider template atomically', async () => {
    await t.create({ type: 'TXT', zona: 'gone', value: 'bye' });
    await t.get('restore/');
    const list = await t.list();
    expect(list.map((r) => `${r.zona} ${r.type}`).sort()).toEqual([' A', ' MX', ' NS', ' NS', ' TXT', 'mail A', 'www CNAME']);
  });

  it('checks every record id against its service: 404 for another service or nonsense', async () => {
    const other = await openDnsTest(kind, {}, 'otra.es');
    try {
      const foreign = (await other.list())[0];
      expect((await t.get(`${foreign.id}/`)).status).toBe(404);
      expect((await t.post(`${foreign.id}/save/`, { value: '1.2.3.4', ttl: 0 })).status).toBe(404);
      expect((await t.get(`${foreign.id}/delete/`)).status).toBe(404);
      for (const bad of ['0', '-1', 'abc', '1e3', '99999999999']) expect((await t.get(`${bad}/`)).status).toBe(404);
      for (const bad of ['99999999999', 'abc', '0x1']) {
        const res = await t.ctx.app.inject({ method: 'GET', url: `/p247/service/${bad}/dns/list/`, headers: t.w });
        expect(res.statusCode).toBe(404);
      }
    } finally {
      await other.ctx.close();
    }
  });

  it('lets a reader see but not change, and hides the zone from strangers', async () => {
    // Users of the same realm: one with every area but the zone, one with the zone alone.
    const { realm } = await t.ctx.store
      .selectFrom('item')
      .innerJoin('realm', 'realm.id', 'item.realm_id')
      .select('realm.name as realm')
      .where('item.id', '=', t.id)
      .executeTakeFirstOrThrow();
    const as: Record<string, Record<string, string>> = {};
    for (const [username, areas] of [
      ['nozone', 'all=write,service_dnszone=disabled'],
      ['zoneonly', 'service_dnszone=write'],
    ]) {
      const user = await createUser(t.ctx.store, realm, username, TEST_PASSWORD);
      await grant(t.ctx.store, realm, username, 'zona.es', parsePermissionMap(areas));
      as[username] = { cookie: `atalaya_sid=${await createSession(t.ctx.store, user.id)}`, 'x-dd-request': '1' };
    }
    // A stranger: a user of another realm, with every right on an item of their own.
    const stranger = await createAccount(t.ctx.store, {
      users: { eve: 'all=write' },
      items: [{ reference: 'eve.es', domain: true, service: 'normal' }],
    });
    for (const headers of [await stranger.as('eve'), as.nozone]) {
      expect((await t.get('list/', headers)).status).toBe(404);
      expect((await t.get('export/', headers)).status).toBe(404);
      expect((await t.post('create/', { type: 'A', zona: 's', value: '192.0.2.99' }, headers)).status).toBe(404);
      expect((await t.get('delete/?confirm=1', headers)).status).toBe(404);
    }
    expect((await t.list()).some((r) => r.zona === 's')).toBe(false);
    // The zone's own area is enough, without any other.
    const zoneOnly = as.zoneonly;
    expect((await t.get('list/', zoneOnly)).status).toBe(200);
    const made = await t.post('create/', { type: 'A', zona: 'z', value: '192.0.2.98' }, zoneOnly);
    expect(made.status).toBe(200);
    expect((await t.get(`${made.body.data.dns.id}/delete/`, zoneOnly)).status).toBe(200);

    expect((await t.get('list/', t.r)).status).toBe(200);
    expect((await t.get('export/', t.r)).status).toBe(200);
    const id = (await t.list())[0].id;
    expect((await t.post('create/', { type: 'A', zona: 'r', value: '1.2.3.4' }, t.r)).status).toBe(403);
    expect((await t.post(`${id}/save/`, { value: '1.2.3.4', ttl: 0 }, t.r)).status).toBe(403);
    for (const path of [`${id}/delete/`, 'restore/', 'delete/?confirm=1']) expect((await t.get(path, t.r)).status).toBe(403);
    const { 'x-dd-request': _, ...noCsrf } = t.w;
    expect((await t.get('delete/?confirm=1', noCsrf)).status).toBe(403);
  });
});
