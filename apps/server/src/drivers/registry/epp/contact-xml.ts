import type { ContactData } from '../interface.ts';
import { type EppCommand, objectCommand } from './command.ts';
import { attr, child, list, text, type XmlNode } from './xml.ts';

/**
 * RFC 5733: contact objects. The panel's contact maps onto one <contact:postalInfo> of type
 * `loc` (UTF-8: names and streets with accents), its phone onto <contact:voice> (already E.164
 * as +CC.NUMBER) and whois privacy onto <contact:disclose>.
 */

/** What RFC 5733 carries of a panel contact; the rest (identity number, the place keys) stays with the panel. */
export interface EppContact {
  id: string;
  name: string;
  org: string;
  street: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
  voice: string;
  email: string;
  /** True when the contact hides its data (<contact:disclose flag="0">). */
  hidden: boolean;
}

export const personName = (data: ContactData) => `${data.firstName} ${data.lastName}`.trim();

/** On update an absent <contact:org> would leave the old one: a person's is sent empty, which clears it. */
function postalInfo(data: ContactData, clearOrg = false): XmlNode {
  const addr: XmlNode = { 'contact:street': data.address, 'contact:city': data.city };
  if (data.state) addr['contact:sp'] = data.state;
  if (data.postalCode) addr['contact:pc'] = data.postalCode;
  addr['contact:cc'] = data.country.toUpperCase();
  return {
    '@_type': 'loc',
    'contact:name': personName(data),
    ...(data.isOrg && data.orgName ? { 'contact:org': data.orgName } : clearOrg ? { 'contact:org': '' } : {}),
    'contact:addr': addr,
  };
}

/** Hide (flag 0) or show (flag 1) the name, organisation, address, phone, fax and e-mail. */
function disclose(hidden: boolean): XmlNode {
  return {
    '@_flag': hidden ? '0' : '1',
    'contact:name': { '@_type': 'loc' },
    'contact:org': { '@_type': 'loc' },
    'contact:addr': { '@_type': 'loc' },
    'contact:voice': '',
    'contact:fax': '',
    'contact:email': '',
  };
}

export const contactCreate = (id: string, data: ContactData, authInfo: string, hidden: boolean): EppCommand =>
  objectCommand('create', 'contact', {
    'contact:id': id,
    'contact:postalInfo': postalInfo(data),
    'contact:voice': data.phone,
    'contact:email': data.email,
    'contact:authInfo': { 'contact:pw': authInfo },
    ...(hidden ? { 'contact:disclose': disclose(true) } : {}),
  });

export const contactUpdate = (id: string, data: ContactData): EppCommand =>
  objectCommand('update', 'contact', {
    'contact:id': id,
    'contact:chg': { 'contact:postalInfo': postalInfo(data, true), 'contact:voice': data.phone, 'contact:email': data.email },
  });

export const contactDisclose = (id: string, hidden: boolean): EppCommand =>
  objectCommand('update', 'contact', { 'contact:id': id, 'contact:chg': { 'contact:disclose': disclose(hidden) } });

export const contactInfo = (id: string): EppCommand => objectCommand('info', 'contact', { 'contact:id': id });

export function readContactInfo(resData: XmlNode | undefined): EppContact {
  const data = child(resData, 'infData');
  if (!data) throw new Error('epp: contact:info answered without <contact:infData>');
  const infos = list(data, 'postalInfo');
  // Prefer the localised form, which is the one the driver writes.
  const info = infos.find((p) => attr(p, 'type') === 'loc') ?? infos[0];
  const [addr] = list(info, 'addr'); // read as a list: host:addr repeats
  const discloseNode = child(data, 'disclose');
  return {
    id: text(child(data, 'id')),
    name: text(child(info, 'name')),
    org: text(child(info, 'org')),
    street: list(addr, 'street').map(text).join(', '),
    city: text(child(addr, 'city')),
    state: text(child(addr, 'sp')),
    postalCode: text(child(addr, 'pc')),
    country: text(child(addr, 'cc')),
    voice: text(child(data, 'voice')),
    email: text(child(data, 'email')),
    hidden: Boolean(discloseNode) && ['0', 'false'].includes(attr(discloseNode, 'flag')),
  };
}
