import {
  type Area,
  CONTACT_TYPES,
  type Contact,
  type ContactType,
  canAct,
  canSee,
  type DomainAnswer,
  type Language,
  type RegistryChangeView,
} from '@atalaya/contract';
import type { ContactData, DomainInfo } from '../../drivers/registry/interface.ts';
import type { ItemAccess } from '../permission/policy.ts';
import { countryName } from './countries.ts';
import { isUnregistered } from './registry.ts';

/** The registrant is the owner-contacts area; admin, billing and tech the contacts area (docs/behaviour/shell-session-domains.md#permissions). */
export const contactArea = (type: ContactType): Area => (type === 'registrant' ? 'domain_ownercontacts' : 'domain_contacts');

/**
 * The area a registry change belongs to, which a user must write to retry it: the area of the
 * route that queued it (a status by its toggle, contacts by the role they change).
 */
export function changeArea(action: string, payload: unknown): Area {
  const asked = payload as { status?: string; roles?: string[] };
  switch (action) {
    case 'nameServers':
      return 'domain_dns';
    case 'hostCreate':
    case 'hostUpdate':
    case 'hostDelete':
      return 'domain_gluerecords';
    case 'secDnsAdd':
    case 'secDnsRemove':
    case 'zoneDs':
      return 'domain_dnssec';
    case 'privacy':
      return 'domain_others';
    case 'status':
      return asked.status === 'clientTransferProhibited'
        ? 'domain_transferblock'
        : asked.status === 'clientUpdateProhibited'
          ? 'domain_others'
          : 'domain';
    case 'contacts':
      return contactArea(asked.roles?.includes('registrant') ? 'registrant' : 'admin');
    default:
      return 'domain';
  }
}

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

/** A change as `openChanges` reads it: its view, and the area a user must write to retry it. */
export type OpenChange = RegistryChangeView & { area: Area };

/**
 * GET /domain/{id}/ and the toggles' answer; contacts the user may not see are null, and a failed
 * change offers its job to retry only to a user who writes the change's area.
 */
export function toDomainAnswer(info: DomainInfo, access: ItemAccess, language: Language, open: OpenChange[]): DomainAnswer {
  const changes = open.map(({ area, ...change }) => ({ ...change, job: canAct(access.permissions, area) ? change.job : null }));
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
      serverStatuses: info.serverStatuses,
      whoisPrivacy: info.privacy,
      permissions: access.permissions,
      authcode: info.authKind === 'authcode',
      transferkey: info.authKind === 'transferkey',
      hasAuthCode: info.hasAuthInfo,
      registered: !isUnregistered(info),
      heldBy: info.heldBy,
      transferIn: info.transferIn,
      pendingTransfer: info.pendingTransfer,
    },
  } as DomainAnswer;
  for (const type of CONTACT_TYPES) answer[type] = contact(type);
  return answer;
}
