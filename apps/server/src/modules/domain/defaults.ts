import { CONTACT_TYPES, type ContactType } from '@atalaya/contract';
import type { Config } from '../../config/config.ts';
import type { ContactData, RegistrationData } from '../../drivers/registry/interface.ts';
import type { Store } from '../../store/db.ts';
import { authKindOf } from './tld.ts';

export const DEFAULT_NAME_SERVERS = ['ns1.example.net', 'ns2.example.net'];

/** The provider's own name servers (config `drivers.registry.nameServers`), used in default DNS mode. */
export function defaultNameServers(config: Config): string[] {
  const configured = config.drivers.registry?.nameServers;
  if (Array.isArray(configured) && configured.length >= 2 && configured.every((h) => typeof h === 'string')) return configured;
  return DEFAULT_NAME_SERVERS;
}

/**
 * What a domain starts with when the panel first meets it: the customer's realm as the
 * organisation (placeholders the customer completes in the contact dialog, at the provider's
 * address in Palma), and the provider's name servers.
 */
export function defaultContact(realm: string): ContactData {
  return {
    isOrg: true,
    orgName: realm,
    firstName: 'Hostmaster',
    lastName: realm,
    identNumber: 'PENDIENTE',
    email: `hostmaster@${realm}`,
    phone: '+34.971000000',
    address: 'Pendiente de completar',
    postalCode: '07001',
    city: 'Palma',
    cityKey: 'Palma',
    state: 'Balearic Islands',
    stateKey: 'PM',
    country: 'ES',
  };
}

/** A registration with the defaults above (its period is the caller's: register.ts asks for a year). */
export async function defaultRegistration(
  { store, config }: { store: Store; config: Config },
  itemId: number,
  name: string,
  realm: string,
): Promise<RegistrationData> {
  const service = await store.selectFrom('service').select('item_id').where('item_id', '=', itemId).executeTakeFirst();
  const contact = defaultContact(realm);
  return {
    mode: service ? 'defaultDNS' : 'setDNS',
    nameServers: defaultNameServers(config),
    authKind: authKindOf(name),
    contacts: Object.fromEntries(CONTACT_TYPES.map((t) => [t, contact])) as Record<ContactType, ContactData>,
  };
}
