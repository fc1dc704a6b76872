import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DomainTest, describeRegistries, openDomainTest } from './helpers.ts';

describeRegistries('domain data, toggles and auth codes on %s', (kind, registry) => {
  let t: DomainTest;
  beforeAll(async () => {
    t = await openDomainTest(kind, registry);
  });
  afterAll(() => t.close());

  it('answers the domain with its four contacts, DNS and flags', async () => {
    const { status, body } = await t.get(`/domain/${t.id('x.es')}/`);
    expect(status).toBe(200);
    const { domain, registrant, admin, billing, tech } = body.data;
    expect(domain).toMatchObject({
      id: t.id('x.es'),
      name: 'x.es',
      blocked: false,
      transferBlock: false,
      whoisPrivacy: false,
      authcode: false,
      transferkey: true,
    });
    expect(domain.dns).toEqual({ mode: 'defaultDNS', servers: ['ns1.example.net', 'ns2.example.net'] });
    expect(domain.permissions.domain).toBe('write');
    expect(typeof domain.expireTS).toBe('number');
    for (const contact of [registrant, admin, billing, tech]) {
      expect(contact).toMatchObject({ type: 'organization', countryKey: 'ES', country: 'España', phone: '+34.971000000' });
    }
  });

  it('gives a domain without a service custom DNS mode and an auth code', async () => {
    const { body } = await t.get(`/domain/${t.id('y.com')}/`);
    expect(body.data.domain).toMatchObject({ authcode: true, transferkey: false, dns: { mode: 'setDNS' } });
  });

  it('names the country in the language of the call', async () => {
    const { body } = await t.get(`/domain/${t.id('x.es')}/?language=ca`);
    expect(body.data.registrant.country).toBe('Espanya');
  });

  it('hides the contacts from a user who may only see the domain', async () => {
    const { status, body } = await t.get(`/domain/${t.id('x.es')}/`, 'd');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ registrant: null, admin: null, billing: null, tech: null });
  });

  it('answers 101 without a session, 404 for another realm, a non-domain item, or a bad id', async () => {
    const none = await t.get(`/domain/${t.id('x.es')}/`, null);
    expect(none.status).toBe(401);
    expect(none.body.system.statusCode).toBe(101);
    expect((await t.get(`/domain/${t.id('other.com')}/`)).status).toBe(404);
    expect((await t.get(`/domain/${t.id('m.com')}/`)).status).toBe(404);
    expect((await t.get('/domain/abc/')).status).toBe(404);
    expect((await t.get('/domain/0/')).status).toBe(404);
    expect((await t.get('/domain/99999999/')).status).toBe(404);
  });

  it.each([
    ['transferblock', 'transferBlock', 'Transfer block turned on', 'Transfer block turned off'],
    ['whoisprivacy', 'whoisPrivacy', 'Whois privacy turned on', 'Whois privacy turned off'],
    ['block', 'blocked', 'Modification block turned on', 'Modification block turned off'],
  ])('toggles %s on and off, answering the updated domain', async (toggle, flag, on, off) => {
    const id = t.id('y.com');
    const first = await t.get(`/domain/${id}/toggle/${toggle}/?language=en`);
    expect(first.status).toBe(200);
    expect(first.body.data.domain[flag]).toBe(true);
    expect(first.body.data.registrant).not.toBeNull();
    expect(first.body.system.info).toEqual([on]);
    const second = await t.get(`/domain/${id}/toggle/${toggle}/?language=en`);
    expect(second.body.data.domain[flag]).toBe(false);
    expect(second.body.system.info).toEqual([off]);
  });

  it('refuses a toggle to a read-only user before changing anything', async () => {
    const id = t.id('y.com');
    for (const toggle of ['block', 'transferblock', 'whoisprivacy']) {
      const res = await t.get(`/domain/${id}/toggle/${toggle}/`, 'r');
      expect(res.status).toBe(403);
      expect(res.body.system.errors).toEqual(['Sin permiso']);
    }
    const { body } = await t.get(`/domain/${id}/`);
    expect(body.data.domain).toMatchObject({ blocked: false, transferBlock: false, whoisPrivacy: false });
  });

  it('answers 404 for an unknown toggle and for another realm', async () => {
    expect((await t.get(`/domain/${t.id('y.com')}/toggle/delete/`)).status).toBe(404);
    expect((await t.get(`/domain/${t.id('other.com')}/toggle/block/`)).status).toBe(404);
  });

  it('refuses every other change while the modification block is on, and lifts it', async () => {
    const id = t.id('z.eu');
    await t.get(`/domain/${id}/toggle/block/`);
    const refused = await t.get(`/domain/${id}/toggle/transferblock/?language=en`);
    expect(refused.status).toBe(409);
    expect(refused.body.system.errors[0]).toMatch(/modification block/);
    expect((await t.get(`/domain/${id}/toggle/whoisprivacy/`)).status).toBe(409);
    const lifted = await t.get(`/domain/${id}/toggle/block/`);
    expect(lifted.status).toBe(200);
    expect(lifted.body.data.domain.blocked).toBe(false);
  });

  it('generates a strong auth code on demand, keeps it, and stores it sealed', async () => {
    const id = t.id('y.com');
    const first = await t.get(`/domain/${id}/authcode/`);
    expect(first.status).toBe(200);
    const code: string = first.body.data.authCode;
    expect(code).toMatch(/^.{16}$/);
    expect(code).toMatch(/[A-Z]/);
    expect(code).toMatch(/[a-z]/);
    expect(code).toMatch(/\d/);
    expect((await t.get(`/domain/${id}/authcode/`, 'w')).body.data.authCode).toBe(code);
    const row = await t.ctx.store.selectFrom('domain').select('auth_sealed').where('item_id', '=', id).executeTakeFirstOrThrow();
    if (registry === 'local') {
      expect(row.auth_sealed).not.toContain(code);
      expect(row.auth_sealed).toMatch(/^v1\./);
    } else {
      // Over EPP the registry holds the code; the panel keeps no copy.
      expect(t.registry!.state.data.domains['y.com'].authInfo).toBe(code);
      expect(row.auth_sealed).toBeNull();
    }
    const { body } = await t.get(`/domain/${id}/`);
    expect(JSON.stringify(body)).not.toContain(code);
  });

  it('never writes the auth code on a read: made at registration, or by a writer who reveals it', async () => {
    const id = t.id('z.eu');
    // Where the code lives: sealed in the store with the local registry, at the registry over EPP.
    const stored = async () =>
      registry === 'local'
        ? (await t.ctx.store.selectFrom('domain').select('auth_sealed').where('item_id', '=', id).executeTakeFirstOrThrow()).auth_sealed
        : t.registry!.state.data.domains['z.eu'].authInfo || null;
    const forget = async () => {
      if (registry === 'local') await t.ctx.store.updateTable('domain').set({ auth_sealed: null }).where('item_id', '=', id).execute();
      else t.registry!.state.data.domains['z.eu'].authInfo = '';
    };
    // Registration made the code: a read shows only that there is one, and leaves it as it is.
    const born = await stored();
    expect(born).toBeTruthy();
    expect((await t.get(`/domain/${id}/`, 'r')).body.data.domain.hasAuthCode).toBe(true);
    expect((await t.get(`/domain/${id}/authcode/`, 'r')).status).toBe(403);
    expect(await stored()).toBe(born);
    // A domain registered without a code (before codes came with registration): the read says so,
    // a read-only user is refused before anything is made, and a writer's reveal makes one.
    await forget();
    // (Over EPP the panel's kept view of the domain refreshes with its next write, not with the test's edit at the registry.)
    if (registry === 'local') expect((await t.get(`/domain/${id}/`, 'r')).body.data.domain.hasAuthCode).toBe(false);
    expect((await t.get(`/domain/${id}/authcode/`, 'r')).status).toBe(403);
    expect(await stored()).toBeNull();
    const made = await t.get(`/domain/${id}/authcode/`, 'w');
    expect(made.status).toBe(200);
    expect(await stored()).toBeTruthy();
    expect((await t.get(`/domain/${id}/authcode/`, 'w')).body.data.authCode).toBe(made.body.data.authCode);
    expect((await t.get(`/domain/${id}/`, 'r')).body.data.domain.hasAuthCode).toBe(true);
  });

  it('answers the transfer key for .es and 404 for the kind a domain does not use', async () => {
    const key = await t.get(`/domain/${t.id('x.es')}/transferkey/`);
    expect(key.status).toBe(200);
    expect(key.body.data.transferkey).toMatch(/^.{16}$/);
    expect((await t.get(`/domain/${t.id('x.es')}/authcode/`)).status).toBe(404);
    expect((await t.get(`/domain/${t.id('y.com')}/transferkey/`)).status).toBe(404);
    expect((await t.get(`/domain/${t.id('other.com')}/authcode/`)).status).toBe(404);
  });

  it('hides the auth code from a user without the authcode area', async () => {
    const { grant, parsePermissionMap } = await import('../../src/modules/provisioning/accounts.ts');
    await grant(t.ctx.store, t.account.realm, 'd', 'y.com', parsePermissionMap('domain_authcode=disabled'));
    expect((await t.get(`/domain/${t.id('y.com')}/authcode/`, 'd')).status).toBe(404);
  });
});
