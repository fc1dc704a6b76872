import type { ContactType } from '@atalaya/contract';
import { type EppCommand, objectCommand } from './command.ts';
import { addressNodes, type HostAddresses } from './host-xml.ts';
import { attr, child, list, text, type XmlNode } from './xml.ts';

/** RFC 5731: the domain commands the driver sends and the <domain:infData> it reads. */

export interface DomainInfData {
  name: string;
  statuses: string[];
  registrant: string;
  /** admin, tech and billing contact ids by role. */
  contacts: Partial<Record<Exclude<ContactType, 'registrant'>, string>>;
  nameServers: string[];
  /** Name servers given as host attributes, with their addresses. */
  hostAttrs: ({ name: string } & HostAddresses)[];
  /** Subordinate host objects (<domain:host>). */
  hosts: string[];
  createdAt: number;
  updatedAt: number;
  expireAt: number;
  authInfo: string;
  /** The sponsoring client. */
  clID: string;
}

const seconds = (date: string) => (date ? Math.floor(Date.parse(date) / 1000) || 0 : 0);

export const domainInfo = (name: string, authInfo?: string): EppCommand =>
  objectCommand('info', 'domain', {
    'domain:name': { '#text': name, '@_hosts': 'all' },
    ...(authInfo ? { 'domain:authInfo': { 'domain:pw': authInfo } } : {}),
  });

export function readDomainInfo(resData: XmlNode | undefined): DomainInfData {
  const data = child(resData, 'infData');
  if (!data) throw new Error('epp: domain:info answered without <domain:infData>');
  const contacts: DomainInfData['contacts'] = {};
  for (const contact of list(data, 'contact')) {
    const role = attr(contact, 'type');
    if (role === 'admin' || role === 'tech' || role === 'billing') contacts[role] = text(contact);
  }
  const ns = child(data, 'ns');
  const hostAttrs = list(ns, 'hostAttr').map((h) => {
    const addrs = list(h, 'hostAddr');
    const first = (ip: string) => text(addrs.find((a) => (attr(a, 'ip') || 'v4') === ip));
    return { name: text(child(h, 'hostName')), ipv4: first('v4'), ipv6: first('v6') };
  });
  return {
    name: text(child(data, 'name')),
    statuses: list(data, 'status').map((s) => attr(s, 's')),
    registrant: text(child(data, 'registrant')),
    contacts,
    nameServers: [...list(ns, 'hostObj').map(text), ...hostAttrs.map((h) => h.name)],
    hostAttrs,
    hosts: list(data, 'host').map(text),
    createdAt: seconds(text(child(data, 'crDate'))),
    updatedAt: seconds(text(child(data, 'upDate'))),
    expireAt: seconds(text(child(data, 'exDate'))),
    authInfo: text(child(child(data, 'authInfo'), 'pw')),
    clID: text(child(data, 'clID')),
  };
}

/**
 * Host addresses by name server, for a registry that takes name servers as host attributes
 * (RFC 5731 §1.1) instead of host objects; absent for host objects.
 */
export type HostAttributes = Map<string, HostAddresses>;

/** <domain:ns> with host objects, or host attributes carrying the addresses of the names in `attributes`. */
function nsNode(names: string[], attributes: HostAttributes | undefined): XmlNode {
  if (!attributes) return { 'domain:hostObj': names };
  return {
    'domain:hostAttr': names.map((name) => {
      const addresses = addressNodes(attributes.get(name) ?? {});
      return { 'domain:hostName': name, ...(addresses.length ? { 'domain:hostAddr': addresses } : {}) };
    }),
  };
}

export interface DomainCreate {
  name: string;
  years: number;
  nameServers: string[];
  registrant: string;
  contacts: Record<Exclude<ContactType, 'registrant'>, string>;
  authInfo: string;
  attributes?: HostAttributes;
}

export const domainCreate = (d: DomainCreate): EppCommand =>
  objectCommand('create', 'domain', {
    'domain:name': d.name,
    'domain:period': { '#text': String(d.years), '@_unit': 'y' },
    ...(d.nameServers.length ? { 'domain:ns': nsNode(d.nameServers, d.attributes) } : {}),
    'domain:registrant': d.registrant,
    'domain:contact': (['admin', 'tech', 'billing'] as const).map((type) => ({ '#text': d.contacts[type], '@_type': type })),
    'domain:authInfo': { 'domain:pw': d.authInfo },
  });

/** What one domain:update adds and removes (RFC 5731 §3.2.5); each list may be empty. */
export interface DomainChange {
  addNs?: string[];
  remNs?: string[];
  addContacts?: { type: string; id: string }[];
  remContacts?: { type: string; id: string }[];
  addStatus?: string[];
  remStatus?: string[];
  registrant?: string;
  authInfo?: string;
  /** Name servers as host attributes: the addresses of those added (removal names them only). */
  attributes?: HostAttributes;
}

function addRem(
  ns: string[] = [],
  contacts: { type: string; id: string }[] = [],
  statuses: string[] = [],
  attributes?: HostAttributes,
): XmlNode | undefined {
  const node: XmlNode = {};
  if (ns.length) node['domain:ns'] = nsNode(ns, attributes);
  if (contacts.length) node['domain:contact'] = contacts.map((c) => ({ '#text': c.id, '@_type': c.type }));
  if (statuses.length) node['domain:status'] = statuses.map((s) => ({ '@_s': s }));
  return Object.keys(node).length ? node : undefined;
}

export function domainUpdate(name: string, change: DomainChange, extension?: XmlNode): EppCommand {
  const body: XmlNode = { 'domain:name': name };
  const add = addRem(change.addNs, change.addContacts, change.addStatus, change.attributes);
  const rem = addRem(change.remNs, change.remContacts, change.remStatus, change.attributes && new Map());
  if (add) body['domain:add'] = add;
  if (rem) body['domain:rem'] = rem;
  const chg: XmlNode = {};
  if (change.registrant) chg['domain:registrant'] = change.registrant;
  if (change.authInfo) chg['domain:authInfo'] = { 'domain:pw': change.authInfo };
  if (Object.keys(chg).length) body['domain:chg'] = chg;
  return objectCommand('update', 'domain', body, extension);
}
