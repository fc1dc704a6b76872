import { type EppCommand, objectCommand } from './command.ts';
import { attr, child, list, text, type XmlNode } from './xml.ts';

/** RFC 5732: host objects, the glue records of name servers inside a domain. */

export interface HostAddresses {
  ipv4: string;
  ipv6: string;
}

/** The addresses as the items of <host:addr> (or <domain:hostAddr>) elements; an empty one is left out. */
export const addressNodes = ({ ipv4, ipv6 }: Partial<HostAddresses>) => [
  ...(ipv4 ? [{ '#text': ipv4, '@_ip': 'v4' }] : []),
  ...(ipv6 ? [{ '#text': ipv6, '@_ip': 'v6' }] : []),
];

export const hostCheck = (names: string[]): EppCommand => objectCommand('check', 'host', { 'host:name': names });

/** The names of a host:check that are free to create, i.e. not yet known to the registry. */
export function readHostCheck(resData: XmlNode | undefined): Set<string> {
  const free = new Set<string>();
  for (const cd of list(child(resData, 'chkData'), 'cd')) {
    const name = child(cd, 'name');
    if (attr(name, 'avail') === '1' || attr(name, 'avail') === 'true') free.add(text(name).toLowerCase());
  }
  return free;
}

export const hostInfo = (name: string): EppCommand => objectCommand('info', 'host', { 'host:name': name });

export function readHostInfo(resData: XmlNode | undefined): { name: string } & HostAddresses {
  const data = child(resData, 'infData');
  if (!data) throw new Error('epp: host:info answered without <host:infData>');
  const all = list(data, 'addr');
  // A host may carry several addresses per family; the panel shows one of each, the first.
  const first = (ip: string) => text(all.find((a) => (attr(a, 'ip') || 'v4') === ip));
  return { name: text(child(data, 'name')), ipv4: first('v4'), ipv6: first('v6') };
}

export const hostCreate = (name: string, addresses: Partial<HostAddresses> = {}): EppCommand => {
  const list = addressNodes(addresses);
  return objectCommand('create', 'host', { 'host:name': name, ...(list.length ? { 'host:addr': list } : {}) });
};

/** Replaces the addresses of a host: adds what is new, removes what is gone. */
export function hostUpdateAddresses(name: string, before: HostAddresses, after: HostAddresses): EppCommand {
  const gone = { ipv4: before.ipv4 !== after.ipv4 ? before.ipv4 : '', ipv6: before.ipv6 !== after.ipv6 ? before.ipv6 : '' };
  const added = { ipv4: before.ipv4 !== after.ipv4 ? after.ipv4 : '', ipv6: before.ipv6 !== after.ipv6 ? after.ipv6 : '' };
  const body: XmlNode = { 'host:name': name };
  if (addressNodes(added).length) body['host:add'] = { 'host:addr': addressNodes(added) };
  if (addressNodes(gone).length) body['host:rem'] = { 'host:addr': addressNodes(gone) };
  return objectCommand('update', 'host', body);
}

export const hostDelete = (name: string): EppCommand => objectCommand('delete', 'host', { 'host:name': name });
