import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemo } from '../../src/demo/seed.ts';
import { createSession } from '../../src/modules/session/sessions.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

describeStores('the demo domains on %s', (kind) => {
  let ctx: TestContext;
  let headers: Record<string, string>;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    ctx = await openTestApp(kind);
    await seedDemo(ctx.app.runtime, 'demo-password-1');
    const user = await ctx.store.selectFrom('user').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
    headers = { cookie: `atalaya_sid=${await createSession(ctx.store, user.id)}`, 'x-dd-request': '1' };
    for (const row of await ctx.store.selectFrom('domain').select(['item_id', 'name']).execute()) ids[row.name] = row.item_id;
  });
  afterAll(() => ctx.close());
  const get = async (url: string) => (await ctx.app.inject({ method: 'GET', url: `/p247${url}`, headers })).json().data;

  it('shows example.com with its own name servers, three glue records and three DS records', async () => {
    const data = await get(`/domain/${ids['example.com']}/`);
    expect(data.domain).toMatchObject({
      transferBlock: true,
      dns: { mode: 'setDNS', servers: ['ns1.example.com', 'ns2.example.com', 'ns3.example.com'] },
    });
    expect(data.registrant).toMatchObject({ orgName: 'Ejemplo Soluciones S.L.', city: 'Palma' });
    expect(data.tech.orgName).toBe('Atalaya Hosting S.L.');
    expect((await get(`/domain/${ids['example.com']}/gluerecord/list/`)).gluerecords).toHaveLength(3);
    expect((await get(`/domain/${ids['example.com']}/dnssec/list/`)).dnssec).toHaveLength(3);
  });

  it('has every demo domain registered by the seed itself, none left to a read (decision 051)', async () => {
    expect(Object.keys(ids).length).toBeGreaterThan(3);
    for (const id of Object.values(ids))
      expect((await get(`/domain/${id}/`)).domain).toMatchObject({ registered: true, hasAuthCode: true });
  });

  it('has key data for the .eu domain, a blocked domain and whois privacy on the blog', async () => {
    expect((await get(`/domain/${ids['consultora-ejemplo.eu']}/dnssec/list/`)).dnssec[0]).toMatchObject({ type: 'pubkey', flags: 257 });
    expect((await get(`/domain/${ids['antigua-web.org']}/`)).domain.blocked).toBe(true);
    expect((await get(`/domain/${ids['blog-ejemplo.com']}/`)).domain.whoisPrivacy).toBe(true);
    expect((await get(`/domain/${ids['mi-marca.cat']}/`)).domain.dns.servers).toEqual(['ns1.dns-externo.net', 'ns2.dns-externo.net']);
  });
});
