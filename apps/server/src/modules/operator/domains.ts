import { CONTACT_TYPES, type ContactType, type operatorDomainRegisterSchema } from '@atalaya/contract';
import type { z } from 'zod';
import type { Config } from '../../config/config.ts';
import type { ContactData, RegistryDriver } from '../../drivers/registry/interface.ts';
import { now, type Store } from '../../store/db.ts';
import { defaultNameServers } from '../domain/defaults.ts';
import { authKindOf } from '../domain/tld.ts';
import { createItem } from '../provisioning/accounts.ts';

type Registration = z.output<typeof operatorDomainRegisterSchema>;

/**
 * Registers a domain for a realm: the item the CLI's `item-create --domain` makes, then the
 * registry's domain:create with the billing system's contacts (admin, billing and tech default to
 * the registrant) and its name servers, or the provider's own in default mode. Refused by the
 * registry, the item is removed again, so nothing half-registered stays.
 */
export async function registerDomain(runtime: { store: Store; config: Config; registry: RegistryDriver }, input: Registration) {
  const { store, config, registry } = runtime;
  const expireAt = now() + input.years * 365 * 86_400;
  const item = await createItem(store, { realm: input.realm, reference: input.name, domain: true, expireAt });
  const contacts = Object.fromEntries(
    CONTACT_TYPES.map((type) => [type, (type === 'registrant' ? input.registrant : (input[type] ?? input.registrant)) as ContactData]),
  ) as Record<ContactType, ContactData>;
  const own = input.nameServers.length === 0;
  try {
    await registry.create(item.id, {
      mode: own ? 'defaultDNS' : 'setDNS',
      nameServers: own ? defaultNameServers(config) : input.nameServers,
      authKind: authKindOf(item.reference),
      contacts,
    });
  } catch (error) {
    await store.deleteFrom('item').where('id', '=', item.id).execute();
    throw error;
  }
  return { id: item.id, name: item.reference, expireAt };
}
