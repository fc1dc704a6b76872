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
});

afterAll(() => {});
