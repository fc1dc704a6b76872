import { createHash } from 'node:crypto';
import { CONTACT_TYPES, type ContactType } from '@atalaya/contract';
import type { ContactData, RegistryDriver } from '../../drivers/registry/interface.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { DEFAULT_NAME_SERVERS } from './defaults.ts';
import { authKindOf } from './tld.ts';

/** Demo registry data for the demo realm: real-looking contacts, name servers, glue and DNSSEC. */

const PALMA = { city: 'Palma', cityKey: 'Palma', state: 'Balearic Islands', stateKey: 'PM', country: 'ES' };
const person = (first: string, last: string, data: Partial<ContactData>): ContactData => ({
  isOrg: false,
  orgName: '',
  firstName: first,
  lastName: last,
  identNumber: '',
  email: '',
  phone: '',
  address: '',
  postalCode: '',
  ...PALMA,
  ...data,
});
const OWNERS: ContactData[] = [
  person('Marta', 'Ferrer Pons', {
    isOrg: true,
    orgName: 'Ejemplo Soluciones S.L.',
    identNumber: 'B07123456',
    email: 'marta.ferrer@example.com',
    phone: '+34.971123456',
    address: 'Carrer de Sant Miquel, 12',
    postalCode: '07002',
  }),
  person('Laura', 'Gómez Vidal', {
    identNumber: '43123456T',
    email: 'laura.gomez@example.org',
    phone: '+34.600123456',
    address: 'Carrer de Mallorca, 250, 3r 1a',
    postalCode: '08008',
    city: 'Barcelona',
    cityKey: 'Barcelona',
    state: 'Catalonia',
    stateKey: 'CT',
  }),
  person('Javier', 'Ruiz Martín', {
    isOrg: true,
    orgName: 'Comercial Ruiz e Hijos S.A.',
    identNumber: 'A28123457',
    email: 'javier.ruiz@example.net',
    phone: '+34.911234567',
    address: 'Calle de Alcalá, 120',
    postalCode: '28009',
    city: 'Madrid',
    cityKey: 'Madrid',
    state: 'Madrid',
    stateKey: 'MD',
  }),
];
const ADMIN = person('Joan', 'Pons Salas', {
  identNumber: '41234567L',
  email: 'joan.pons@example.com',
  phone: '+34.971654321',
  address: 'Avinguda de Jaume III, 7',
  postalCode: '07012',
});
const TECH = person('Equipo', 'Técnico', {
  isOrg: true,
  orgName: 'Atalaya Hosting S.L.',
  identNumber: 'B07654321',
  email: 'soporte@example.net',
  phone: '+34.971000111',
  address: 'Carrer del Sindicat, 40',
  postalCode: '07002',
});

const hex = (seed: string, length: number) => createHash('sha512').update(seed).digest('hex').slice(0, length).toUpperCase();

export async function seedDomainDemo({ store, drivers }: Runtime, realm: string) {
  const registry = drivers.registry;
  const domains = await store
    .selectFrom('domain')
    .innerJoin('item', 'item.id', 'domain.item_id')
    .innerJoin('realm', 'realm.id', 'item.realm_id')
    .leftJoin('service', 'service.item_id', 'domain.item_id')
    .select(['domain.item_id', 'domain.name', 'service.item_id as service_id'])
    .where('realm.name', '=', realm)
    .orderBy('domain.item_id')
    .execute();
  for (const [index, domain] of domains.entries()) {
    const owner = OWNERS[index % OWNERS.length];
    const contacts = Object.fromEntries(
      CONTACT_TYPES.map((t) => [t, t === 'registrant' || t === 'billing' ? owner : t === 'admin' ? ADMIN : TECH]),
    );
    const external = ['ns1.dns-externo.net', 'ns2.dns-externo.net'];
    await registry.create(domain.item_id, {
      mode: domain.service_id ? 'defaultDNS' : 'setDNS',
      nameServers: domain.service_id ? DEFAULT_NAME_SERVERS : external,
      authKind: authKindOf(domain.name),
      contacts: contacts as Record<ContactType, ContactData>,
    });
    if (domain.name === 'example.com') await seedExample(registry, domain.item_id);
    if (domain.name.endsWith('.eu')) {
      const key = Buffer.from(hex(domain.name, 64), 'hex').toString('base64');
      await registry.addSecDns(domain.item_id, {
        type: 'pubkey',
        keyTag: 0,
        algorithm: 15,
        digestType: null,
        digest: key,
        flags: 257,
        protocol: 3,
      });
    }
    if (domain.name === 'blog-ejemplo.com') await registry.setPrivacy(domain.item_id, true);
    if (domain.name === 'antigua-web.org')
      await registry.updateStatus(domain.item_id, { add: ['clientUpdateProhibited', 'clientTransferProhibited'] });
  }
}

/** The showcase: its own name servers with glue, three DS records, a transfer block. */
async function seedExample(registry: RegistryDriver, itemId: number) {
  await registry.createHost(itemId, { name: 'ns1.example.com', ipv4: '192.0.2.53', ipv6: '2001:db8::53' });
  await registry.createHost(itemId, { name: 'ns2.example.com', ipv4: '198.51.100.53', ipv6: '' });
  await registry.createHost(itemId, { name: 'ns3.example.com', ipv4: '203.0.113.53', ipv6: '2001:db8:3::53' });
  await registry.setNameServers(itemId, 'setDNS', ['ns1.example.com', 'ns2.example.com', 'ns3.example.com']);
  await registry.addSecDns(itemId, {
    type: 'digest',
    keyTag: 2371,
    algorithm: 13,
    digestType: 2,
    digest: hex('example.com/2', 64),
    flags: null,
    protocol: null,
  });
  await registry.addSecDns(itemId, {
    type: 'digest',
    keyTag: 2371,
    algorithm: 13,
    digestType: 4,
    digest: hex('example.com/4', 96),
    flags: null,
    protocol: null,
  });
  await registry.addSecDns(itemId, {
    type: 'digest',
    keyTag: 31406,
    algorithm: 8,
    digestType: 2,
    digest: hex('example.com/8', 64),
    flags: null,
    protocol: null,
  });
  await registry.updateStatus(itemId, { add: ['clientTransferProhibited'] });
}
