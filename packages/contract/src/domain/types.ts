import type { PermissionMap } from '../permissions.ts';
import type { ContactType, DnsMode, DnssecType } from './codes.ts';

/** The answers of the domain calls (spec §3 and §7), as the routes send them and the screens read them. */

export interface Contact {
  type: 'organization' | 'individual';
  orgName: string;
  name: string;
  firstName: string;
  lastName: string;
  vat: string;
  email: string;
  phone: string;
  address: string;
  postalCode: string;
  city: string;
  cityKey: string;
  state: string;
  stateKey: string;
  country: string;
  countryKey: string;
}

export interface DomainView {
  id: number;
  name: string;
  dns: { mode: DnsMode; servers: string[] };
  status: string;
  expireTS: number;
  ts: number;
  blocked: boolean;
  transferBlock: boolean;
  whoisPrivacy: boolean;
  permissions: PermissionMap;
  authcode: boolean;
  transferkey: boolean;
}

/** GET /domain/{id}/ and the toggles: a contact the user may not see is null. */
export type DomainAnswer = { domain: DomainView } & Record<ContactType, Contact | null>;

export interface GlueRecord {
  id: number;
  name: string;
  ip: string;
  ipv6: string;
}

export interface DnssecRecord {
  id: number;
  type: DnssecType;
  keytag: number;
  algorithm: number;
  digesttype: number | null;
  digest: string;
  flags: number | null;
  protocols: number | null;
}

export interface DnsInit {
  domainDNSs: string[];
  defaultDNSs: string[];
  hasService: boolean;
  mode: DnsMode;
}

export interface DnssecInit {
  type: DnssecType;
  algorithms: Record<number, string>;
  digestTypes: Record<number, string>;
  flags: Record<number, string>;
  protocols: Record<number, string>;
}

export interface Option {
  key: string;
  name: string;
}

export interface CountryLookup {
  selected: { country: string; state: string; city: string; postalCode: string };
  names: { state: string; city: string };
  country: Record<string, string>;
  states: Option[];
  cities: Option[];
  postalCodes: string[];
}
