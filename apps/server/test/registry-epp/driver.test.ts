import { CONTACT_TYPES, type ContactType } from '@atalaya/contract';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { type ContactData, RegistryError, type SecDnsData } from '../../src/drivers/registry/interface.ts';
import { traceRegistry } from '../../src/drivers/registry/trace.ts';
import { describeStores } from '../stores.ts';
import { type Certs, certificateFiles, type DriverTest, openDriverTest } from './harness.ts';

const person = (name: string, extra: Partial<ContactData> = {}): ContactData => ({
  isOrg: false,
  orgName: '',
  firstName: name,
  lastName: 'Pérez García',
  identNumber: '12345678Z',
  email: `${name.toLowerCase()}@example.es`,
  phone: '+34.971123456',
  address: 'Carrer de Sant Miquel, 1',
  postalCode: '07002',
  city: 'Palma',
  cityKey: 'Palma',
  state: 'Illes Balears',
  stateKey: 'PM',
  country: 'ES',
  ...extra,
});
const all = (data: ContactData) => Object.fromEntries(CONTACT_TYPES.map((t) => [t, data])) as Record<ContactType, ContactData>;
const NS = ['ns1.provider.example', 'ns2.provider.example'];
const DS: SecDnsData = {
  type: 'digest',
  keyTag: 12345,
  algorithm: 13,
  digestType: 2,
  digest: 'E2D3C916F6DEEAC73294E8268FB5885044A833FC5459588F4A9184CFC41A5766',
  flags: null,
  protocol: null,
};

async function refusal(work: Promise<unknown>): Promise<RegistryError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof RegistryError)) throw new Error(`expected a RegistryError, got ${error}`);
  return error;
}

let certs: Certs;
beforeAll(() => {
  certs = certificateFiles();
});

describeStores('the epp registry driver against the test registry over TLS (%s)', (kind) => {
  let t: DriverTest;
  let id: number;
  const register = () => t.driver.create(id, { mode: 'setDNS', nameServers: NS, authKind: 'authcode', contacts: all(person('Ana')) });

  beforeEach(async () => {
    t = await openDriverTest(kind, certs, ['example.es', 'other.es']);
    id = t.items['example.es'];
  });
  afterEach(async () => t.close());

  it('answers no contacts for a domain the registry does not know, then registers it with one contact object for the four roles', async () => {
    const before = await t.driver.info(id);
    expect(before).toMatchObject({ name: 'example.es', contacts: {}, nameServers: [] });
    await register();
    const info = (await t.driver.info(id))!;
    expect(info.nameServers).toEqual(NS);
    expect(info.statuses).toEqual(['ok']);
    expect(info.hasAuthInfo).toBe(true);
    expect(info.expireAt).toBeGreaterThan(Date.now() / 1000 + 360 * 86400);
    expect(info.contacts.registrant).toEqual(person('Ana'));
    expect(info.contacts.billing).toEqual(person('Ana'));
    const domain = t.registry.state.data.domains['example.es'];
    expect(new Set([domain.registrant, ...domain.contacts.map((c) => c.id)]).size).toBe(1);
  });

  it('registers a domain once, however often it is asked', async () => {
    await register();
    await register();
    expect((await t.driver.info(id))!.contacts.admin).toEqual(person('Ana'));
  });

  it('sets and lifts client statuses, and refuses every other change under clientUpdateProhibited until it is lifted', async () => {
    await register();
    await t.driver.updateStatus(id, { add: ['clientUpdateProhibited', 'clientTransferProhibited'] });
    expect((await t.driver.info(id))!.statuses).toEqual(['clientUpdateProhibited', 'clientTransferProhibited']);
    expect(t.registry.state.data.domains['example.es'].statuses.map((s) => s.s).sort()).toEqual([
      'clientTransferProhibited',
      'clientUpdateProhibited',
    ]);
    expect((await refusal(t.driver.setNameServers(id, 'setDNS', ['ns3.provider.example', ...NS]))).code).toBe('blocked');
    expect((await refusal(t.driver.addSecDns(id, DS))).code).toBe('blocked');
    expect((await refusal(t.driver.setPrivacy(id, true))).code).toBe('blocked');
    await t.driver.updateStatus(id, { add: ['clientUpdateProhibited'] }); // already there: nothing to send
    await t.driver.updateStatus(id, { rem: ['clientUpdateProhibited'] });
    expect((await t.driver.info(id))!.statuses).toEqual(['clientTransferProhibited']);
    await t.driver.setNameServers(id, 'setDNS', ['ns3.provider.example', ...NS]);
  });

  it('replaces the name servers with one update, creating the host objects it needs, and keeps the DNS mode in the panel', async () => {
    await register();
    await t.driver.setNameServers(id, 'defaultDNS', ['ns2.provider.example', 'NS9.Elsewhere.example']);
    const info = (await t.driver.info(id))!;
    expect(info.nameServers.sort()).toEqual(['ns2.provider.example', 'ns9.elsewhere.example']);
    expect(info.dnsMode).toBe('defaultDNS');
    expect(t.registry.state.data.hosts['ns9.elsewhere.example']).toBeDefined();
  });

  it('refuses a name server inside the domain without its glue, naming it, and takes it once the glue exists', async () => {
    await register();
    const error = await refusal(t.driver.setNameServers(id, 'setDNS', ['ns1.example.es', NS[0]]));
    expect(error).toMatchObject({ code: 'needs_glue', subject: 'ns1.example.es' });
    await t.driver.createHost(id, { name: 'ns1.example.es', ipv4: '192.0.2.53', ipv6: '' });
    await t.driver.setNameServers(id, 'setDNS', ['ns1.example.es', NS[0]]);
    expect((await t.driver.info(id))!.nameServers.sort()).toEqual(['ns1.example.es', NS[0]]);
  });

  it('keeps glue as subordinate host objects: created, listed with a stable id, re-addressed, refused while in use, deleted', async () => {
    await register();
    const hostId = await t.driver.createHost(id, { name: 'ns1.example.es', ipv4: '192.0.2.53', ipv6: '2001:db8::53' });
    expect(await t.driver.listHosts(id)).toEqual([{ id: hostId, name: 'ns1.example.es', ipv4: '192.0.2.53', ipv6: '2001:db8::53' }]);
    expect((await refusal(t.driver.createHost(id, { name: 'ns1.example.es', ipv4: '192.0.2.54', ipv6: '' }))).code).toBe('exists');
    await t.driver.updateHost(id, hostId, { ipv4: '192.0.2.99', ipv6: '' });
    expect(t.registry.state.data.hosts['ns1.example.es'].addrs).toEqual([{ ip: 'v4', addr: '192.0.2.99' }]);
    await t.driver.setNameServers(id, 'setDNS', ['ns1.example.es', NS[0]]);
    const inUse = await refusal(t.driver.deleteHost(id, hostId));
    expect(inUse.code).toBe('in_use');
    expect(inUse.result).toBe(2305);
    expect(inUse.reason).not.toBe('');
    await t.driver.setNameServers(id, 'setDNS', NS);
    await t.driver.deleteHost(id, hostId);
    expect(await t.driver.listHosts(id)).toEqual([]);
    expect((await refusal(t.driver.deleteHost(id, hostId))).code).toBe('not_found');
  });

  it('adds and removes DS data through secDNS-1.1 behind a stable id, refusing a duplicate and an unknown id', async () => {
    await register();
    const dsId = await t.driver.addSecDns(id, DS);
    expect(await t.driver.listSecDns(id)).toEqual([{ ...DS, id: dsId }]);
    expect((await refusal(t.driver.addSecDns(id, DS))).code).toBe('exists');
    const second = await t.driver.addSecDns(id, { ...DS, keyTag: 54321 });
    expect(second).not.toBe(dsId);
    await t.driver.removeSecDns(id, dsId);
    expect((await t.driver.listSecDns(id)).map((d) => d.id)).toEqual([second]);
    expect((await refusal(t.driver.removeSecDns(id, dsId))).code).toBe('not_found');
    expect(t.registry.state.data.domains['example.es'].secDNS.ds.map((d) => d.keyTag)).toEqual([54321]);
  });

  it('passes on a policy refusal of the registry with its reason: a fourteenth DS record', async () => {
    await register();
    for (let tag = 1; tag <= 13; tag++) await t.driver.addSecDns(id, { ...DS, keyTag: tag });
    const error = await refusal(t.driver.addSecDns(id, { ...DS, keyTag: 14 }));
    expect(error).toMatchObject({ code: 'policy', result: 2306 });
    expect(error.reason).toMatch(/13/);
    expect(await t.driver.listSecDns(id)).toHaveLength(13);
  });

  it('adds and removes key data, with its key tag computed', async () => {
    await register();
    const key: SecDnsData = {
      type: 'pubkey',
      keyTag: 0,
      algorithm: 13,
      digestType: null,
      digest: 'mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==',
      flags: 257,
      protocol: 3,
    };
    const keyId = await t.driver.addSecDns(id, key);
    const [listed] = await t.driver.listSecDns(id);
    expect(listed).toMatchObject({ id: keyId, type: 'pubkey', flags: 257, protocol: 3, algorithm: 13, digest: key.digest });
    expect(listed.keyTag).toBeGreaterThan(0);
    await t.driver.removeSecDns(id, keyId);
    expect(await t.driver.listSecDns(id)).toEqual([]);
  });

  it('updates a contact in place when only the changed roles use it, and gives the changed roles a new object when it is shared', async () => {
    await register();
    const shared = t.registry.state.data.domains['example.es'].registrant!;
    await t.driver.updateContacts(id, ['registrant'], person('Bea', { isOrg: true, orgName: 'Bea & Cía, S.L.' }));
    let domain = t.registry.state.data.domains['example.es'];
    expect(domain.registrant).not.toBe(shared);
    expect(domain.contacts.map((c) => c.id)).toEqual([shared, shared, shared]);
    const info = (await t.driver.info(id))!;
    expect(info.contacts.registrant).toEqual(person('Bea', { isOrg: true, orgName: 'Bea & Cía, S.L.' }));
    expect(info.contacts.admin).toEqual(person('Ana'));
    // Now only the other three roles use the first object: changed where it is.
    await t.driver.updateContacts(id, ['admin', 'tech', 'billing'], person('Carla'));
    domain = t.registry.state.data.domains['example.es'];
    expect(domain.contacts.map((c) => c.id)).toEqual([shared, shared, shared]);
    expect(t.registry.state.data.contacts[shared].email).toBe('carla@example.es');
    expect((await t.driver.info(id))!.contacts.tech).toEqual(person('Carla'));
  });

  it('makes a changed registrant a new contact object when configured so, even when nothing else uses it', async () => {
    await t.close();
    t = await openDriverTest(kind, certs, ['example.es'], { registrantChange: 'create' });
    id = t.items['example.es'];
    await t.driver.create(id, {
      mode: 'setDNS',
      nameServers: NS,
      authKind: 'authcode',
      contacts: { ...all(person('Ana')), registrant: person('Bea') },
    });
    const before = t.registry.state.data.domains['example.es'].registrant;
    await t.driver.updateContacts(id, ['registrant'], person('Dora'));
    const after = t.registry.state.data.domains['example.es'].registrant;
    expect(after).not.toBe(before);
    expect(t.registry.state.data.contacts[before!].email).toBe('bea@example.es');
    expect((await t.driver.info(id))!.contacts.registrant).toEqual(person('Dora'));
  });

  it('reads a contact changed outside the panel from the registry, splitting the name it cannot match', async () => {
    await register();
    const handle = t.registry.state.data.domains['example.es'].registrant!;
    t.registry.state.data.contacts[handle].postalInfo[0].name = 'Eva María Soler';
    const contact = (await t.driver.info(id))!.contacts.registrant!;
    expect(contact).toMatchObject({ firstName: 'Eva María', lastName: 'Soler', email: 'ana@example.es' });
  });

  it('turns whois privacy on and off with the disclose flags of every contact of the domain', async () => {
    await register();
    await t.driver.updateContacts(id, ['registrant'], person('Bea'));
    await t.driver.setPrivacy(id, true);
    expect((await t.driver.info(id))!.privacy).toBe(true);
    for (const contact of Object.values(t.registry.state.data.contacts)) expect(contact.hidden.length).toBeGreaterThan(0);
    await t.driver.setPrivacy(id, false);
    expect((await t.driver.info(id))!.privacy).toBe(false);
    for (const contact of Object.values(t.registry.state.data.contacts)) expect(contact.hidden).toEqual([]);
  });

  it('reads the auth code from info and never makes a second one', async () => {
    await register();
    const code = await t.driver.authInfo(id);
    expect(code).toBe(t.registry.state.data.domains['example.es'].authInfo);
    expect(await t.driver.createAuthInfo(id)).toBe(code);
  });

  it('sets an auth code with update when the registry holds none', async () => {
    await register();
    t.registry.state.data.domains['example.es'].authInfo = '';
    expect(await t.driver.authInfo(id)).toBeNull();
    const code = await t.driver.createAuthInfo(id);
    expect(code).toMatch(/^.{16}$/);
    expect(t.registry.state.data.domains['example.es'].authInfo).toBe(code);
  });

  it('refuses with not_found an item whose domain the registry does not know', async () => {
    expect((await refusal(t.driver.listSecDns(id))).code).toBe('not_found');
    expect((await refusal(t.driver.authInfo(id))).code).toBe('not_found');
    expect(await t.driver.info(999_999)).toBeNull();
  });

  it('gives every change a unique clTRID and keeps the svTRID the registry answered', async () => {
    await register();
    const { transactions } = await traceRegistry(async () => {
      await t.driver.addSecDns(id, DS);
      await t.driver.updateStatus(id, { add: ['clientTransferProhibited'] });
    });
    expect(transactions.map((x) => x.command)).toEqual(['domain:update', 'domain:update']);
    for (const x of transactions)
      expect(x).toMatchObject({ result: 1000, pending: false, clTRID: expect.stringMatching(/^ATL-/), svTRID: expect.any(String) });
    expect(new Set(transactions.map((x) => x.clTRID)).size).toBe(2);
    expect(transactions.every((x) => x.svTRID.length > 0)).toBe(true);
  });

  it('takes name servers as host attributes where configured: glue kept by the panel, its addresses sent with the name server', async () => {
    await t.close();
    t = await openDriverTest(kind, certs, ['example.es'], { hostModel: 'attributes' }, { policy: { hostModel: 'attributes' } });
    id = t.items['example.es'];
    await register();
    expect(t.registry.state.data.domains['example.es'].hostAttrs.map((h) => h.name)).toEqual(NS);
    expect((await refusal(t.driver.setNameServers(id, 'setDNS', ['ns1.example.es', NS[0]]))).code).toBe('needs_glue');
    const glueId = await t.driver.createHost(id, { name: 'ns1.example.es', ipv4: '192.0.2.53', ipv6: '' });
    expect(await t.driver.listHosts(id)).toEqual([{ id: glueId, name: 'ns1.example.es', ipv4: '192.0.2.53', ipv6: '' }]);
    await t.driver.setNameServers(id, 'setDNS', ['ns1.example.es', NS[0]]);
    const attrs = () => t.registry.state.data.domains['example.es'].hostAttrs;
    expect(attrs().find((h) => h.name === 'ns1.example.es')!.addrs).toEqual([{ ip: 'v4', addr: '192.0.2.53' }]);
    await t.driver.updateHost(id, glueId, { ipv4: '192.0.2.54', ipv6: '2001:db8::54' });
    expect(attrs().find((h) => h.name === 'ns1.example.es')!.addrs).toEqual([
      { ip: 'v4', addr: '192.0.2.54' },
      { ip: 'v6', addr: '2001:db8::54' },
    ]);
    expect((await refusal(t.driver.deleteHost(id, glueId))).code).toBe('in_use');
    await t.driver.setNameServers(id, 'setDNS', NS);
    await t.driver.deleteHost(id, glueId);
    expect(await t.driver.listHosts(id)).toEqual([]);
    expect(Object.keys(t.registry.state.data.hosts)).toEqual([]);
  });

  it('logs frames at debug with the password and the auth codes hidden', async () => {
    await register();
    const code = (await t.driver.authInfo(id))!;
    const frames = t.logged.filter((l) => l.level === 'debug').map((l) => String(l.details.frame));
    expect(frames.some((f) => f.includes('<login>') && f.includes('<pw>***</pw>'))).toBe(true);
    expect(frames.some((f) => f.includes('<domain:pw>***</domain:pw>'))).toBe(true);
    expect(frames.join('\n')).not.toContain(code);
    expect(frames.join('\n')).not.toContain('secret-a1');
  });
});

afterAll(() => {});
