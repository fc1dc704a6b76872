import {
  type Area,
  CONTACT_TYPES,
  type Contact,
  type ContactType,
  canSee,
  type DomainAnswer,
  type Language,
  type RegistryChangeView,
} from '@atalaya/contract';
import type { ContactData, DomainInfo } from '../../drivers/registry/interface.ts';
import type { ItemAccess } from '../permission/policy.ts';
import { countryName } from './countries.ts';

/** The registrant is the owner-contacts area; admin, billing and tech the contacts area (docs/behaviour/shell-session-domains.md#permissions). */
export const contactArea = (type: ContactType): Area => (type === 'registrant' ? 'domain_ownercontacts' : 'domain_contacts');

export function toContactView(data: ContactData, language: Language): Contact {
  return {
    type: data.isOrg ? 'organization' : 'individual',
    orgName: data.orgName,
    name: data.isOrg ? data.orgName : `${data.firstName} ${data.lastName}`,
    firstName: data.firstName,
    lastName: data.lastName,
    vat: data.identNumber,
    email: data.email,
    phone: data.phone,
    address: data.address,
    postalCode: data.postalCode,
    city: data.city,
    cityKey: data.cityKey,
    state: data.state,
    stateKey: data.stateKey,
    country: countryName(data.country, language),
    countryKey: data.country,
  };
}

/** GET /domain/{id}/ and the toggles' answer; contacts the user may not see are null. */
export function toDomainAnswer(info: DomainInfo, access: ItemAccess, language: Language, changes: RegistryChangeView[]): DomainAnswer {
  const contact = (type: ContactType) => {
    const data = info.contacts[type];
    return data && canSee(access.permissions, contactArea(type)) ? toContactView(data, language) : null;
  };
  const answer = {
    changes,
    domain: {
      id: info.itemId,
      name: info.name,
      dns: { mode: info.dnsMode, servers: info.nameServers },
      status: info.status,
      expireTS: info.expireAt,
      expiry: info.lifecycle,
      renewalMode: info.renewalMode,
      transferLockUntil: info.transferLockUntil,
      ts: info.updatedAt,
      blocked: info.statuses.includes('clientUpdateProhibited'),
      transferBlock: info.statuses.includes('clientTransferProhibited'),
      whoisPrivacy: info.privacy,
      permissions: access.permissions,
      authcode: info.authKind === 'authcode',
      transferkey: info.authKind === 'transferkey',
    },
  } as DomainAnswer;
  for (const type of CONTACT_TYPES) answer[type] = contact(type);
  return answer;
}
