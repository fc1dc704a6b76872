import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type DomainTest, describeRegistries, fieldErrors, openDomainTest } from './helpers.ts';

describeRegistries('DNS servers on %s', (kind, registry) => {
  let t: DomainTest;
  beforeAll(async () => {
    t = await openDomainTest(kind, registry);
  });
  afterAll(() => t.close());
  const edit = (reference: string, fields: Record<string, string | string[]>, user?: string) =>
    t.post(`/domain/${t.id(reference)}/dnsedit/?language=en`, fields, user);

  it('answers the init data: current servers, the provider servers, whether there is a service', async () => {
    const { status, body } = await t.get(`/domains/${t.id('x.es')}/dnsinit/`);
    expect(status).toBe(200);
    expect(body.data).toEqual({
      domainDNSs: ['ns1.example.net', 'ns2.example.net'],
      defaultDNSs: ['ns1.example.net', 'ns2.example.net'],
      hasService: true,
      mode: 'defaultDNS',
    });
    expect((await t.get(`/domains/${t.id('y.com')}/dnsinit/`)).body.data.hasService).toBe(false);
  });

  it('replaces the set with 2 to 7 custom servers, IDN stored as punycode, blank rows ignored', async () => {
    const res = await edit('x.es', { 'default-ns': '0', dns: ['NS1.Hosting-Externo.com.', '', 'ns.ñandú.es'] });
    expect(res.status).toBe(200);
    expect(res.body.system.info[0]).toMatch(/24 hours/);
    const init = await t.get(`/domains/${t.id('x.es')}/dnsinit/`);
    expect(init.body.data).toMatchObject({ domainDNSs: ['ns1.hosting-externo.com', 'ns.xn--and-6ma2c.es'], mode: 'setDNS' });
    const seven = Array.from({ length: 7 }, (_, i) => `ns${i}.example.org`);
    expect((await edit('x.es', { 'default-ns': '0', dns: seven })).status).toBe(200);
    expect((await t.get(`/domain/${t.id('x.es')}/`)).body.data.domain.dns).toEqual({ mode: 'setDNS', servers: seven });
  });

  it('goes back to the provider servers with default-ns=1 when the domain has a service', async () => {
    expect((await edit('x.es', { 'default-ns': '1' })).status).toBe(200);
    expect((await t.get(`/domain/${t.id('x.es')}/`)).body.data.domain.dns).toEqual({
      mode: 'defaultDNS',
      servers: ['ns1.example.net', 'ns2.example.net'],
    });
  });

  it('reads the servers in their order, whatever order their rows were written in', async () => {
    const itemId = t.id('z.eu');
    await t.get(`/domain/${itemId}/`); // the screen's first read (openDomainTest registered it, decision 051), with the provider's servers
    await t.ctx.store.updateTable('domain').set({ dns_mode: 'setDNS' }).where('item_id', '=', itemId).execute();
    if (registry === 'epp') {
      // Over EPP the order is the registry's: the panel shows it as the registry answers it, unsorted.
      t.registry!.state.data.domains['z.eu'].hostObjs = ['ns1.z.example', 'ns0.z.example', 'ns2.z.example'];
    } else {
      await t.ctx.store.deleteFrom('domain_name_server').where('item_id', '=', itemId).execute();
      // Written last to first: a read that followed the rows' physical order would answer them reversed.
      for (const position of [2, 1, 0]) {
        await t.ctx.store
          .insertInto('domain_name_server')
          .values({ item_id: itemId, position, host: `ns${position}.z.example` })
          .execute();
      }
    }
    const { body } = await t.get(`/domain/${itemId}/`);
    const expected =
      registry === 'epp' ? ['ns1.z.example', 'ns0.z.example', 'ns2.z.example'] : ['ns0.z.example', 'ns1.z.example', 'ns2.z.example'];
    expect(body.data.domain.dns.servers).toEqual(expected);
  });

  it('refuses default-ns=1 for a domain without a service', async () => {
    const res = await edit('y.com', { 'default-ns': '1' });
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toEqual({ 'default-ns': "The provider's DNS servers are only available when the domain has a service" });
  });

  it.each([
    [{ 'default-ns': '0', dns: ['ns1.example.org'] }, { dns: 'Give at least 2 DNS servers' }],
    [{ 'default-ns': '0', dns: ['ns1.example.org', ''] }, { dns: 'Give at least 2 DNS servers' }],
    [{ 'default-ns': '0' }, { dns: 'Give at least 2 DNS servers' }],
    [{ 'default-ns': '0', dns: Array.from({ length: 8 }, (_, i) => `ns${i}.example.org`) }, { dns: 'Give at most 7 DNS servers' }],
    [{ 'default-ns': '0', dns: ['ns1.example.org', 'NS1.example.org.'] }, { 'dns.1': 'This DNS server is repeated' }],
    [{ 'default-ns': '0', dns: ['ns1.example.org', 'ns_2.example.org'] }, { 'dns.1': 'Invalid host name' }],
    [
      { 'default-ns': '0', dns: ['localhost', '-ns.example.org'] },
      { 'dns.0': 'Invalid host name', 'dns.1': 'Invalid host name' },
    ],
    [{ 'default-ns': '0', dns: ['ns1.example.org', '192.0.2.1'] }, { 'dns.1': 'Invalid host name' }],
    [{ 'default-ns': '2', dns: ['ns1.example.org', 'ns2.example.org'] }, { 'default-ns': 'Invalid option' }],
    [{ dns: ['ns1.example.org', 'ns2.example.org'] }, { 'default-ns': 'Required field' }],
  ])('refuses %j with a field error', async (fields, errors) => {
    const res = await edit('y.com', fields);
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toEqual(errors);
  });

  it('asks for the glue record of a server inside the domain first', async () => {
    const res = await edit('y.com', { 'default-ns': '0', dns: ['ns1.example.org', 'ns2.y.com'] });
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toEqual({ 'dns.1': 'This server is inside the domain: create its glue record with its IP first' });
    await t.post(`/domain/${t.id('y.com')}/gluerecord/create/`, { name: 'ns2.y.com', ip: '192.0.2.2' });
    expect((await edit('y.com', { 'default-ns': '0', dns: ['ns1.example.org', 'ns2.y.com'] })).status).toBe(200);
  });

  it('reads the registry once for a save: the glue check and the DNSSEC guard use the domain info already read', async () => {
    const registry = t.ctx.app.runtime.drivers.registry;
    await t.get(`/domain/${t.id('z.eu')}/`); // registered, and its info kept
    const spies = (['info', 'listHosts', 'listSecDns'] as const).map((method) => vi.spyOn(registry, method));
    try {
      const save = (dns: string[]) => t.postQueued(`/domain/${t.id('z.eu')}/dnsedit/`, { 'default-ns': '0', dns });
      expect((await save(['ns1.example.org', 'ns2.z.eu'])).status).toBe(400);
      expect((await save(['ns1.example.org', 'ns2.example.org'])).status).toBe(200);
      const [info, listHosts, listSecDns] = spies.map((spy) => spy.mock.calls.length);
      expect(info).toBeLessThanOrEqual(1);
      expect({ listHosts, listSecDns }).toEqual({ listHosts: 0, listSecDns: 0 });
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('refuses a read-only user, another realm and a blocked domain, leaving the set as it was', async () => {
    const fields = { 'default-ns': '0', dns: ['a.example.org', 'b.example.org'] };
    expect((await edit('y.com', fields, 'r')).status).toBe(403);
    expect((await t.post(`/domain/${t.id('other.com')}/dnsedit/`, fields)).status).toBe(404);
    expect((await t.get(`/domains/${t.id('other.com')}/dnsinit/`)).status).toBe(404);
    await t.get(`/domain/${t.id('y.com')}/toggle/block/`);
    expect((await edit('y.com', fields)).status).toBe(409);
    await t.get(`/domain/${t.id('y.com')}/toggle/block/`);
    expect((await t.get(`/domain/${t.id('y.com')}/`)).body.data.domain.dns.servers).toEqual(['ns1.example.org', 'ns2.y.com']);
    expect((await t.post(`/domain/${t.id('y.com')}/dnsedit/`, fields, null)).body.system.statusCode).toBe(101);
  });
});
