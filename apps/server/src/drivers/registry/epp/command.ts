import { eppDocument, NS, type XmlNode } from './xml.ts';

/** One EPP command before it gets its clTRID: its name for logs and errors, and its XML children. */
export interface EppCommand {
  /** e.g. `domain:update`. */
  name: string;
  /** A read may be sent again after a dropped connection; a change is first checked with `info`. */
  read: boolean;
  /** The children of <command>: the verb, then <extension> when there is one. */
  node: XmlNode;
}

/** `verb` of an object namespace, e.g. objectCommand('update', 'domain', {...}). */
export function objectCommand(verb: string, object: 'domain' | 'host' | 'contact', body: XmlNode, extension?: XmlNode): EppCommand {
  const node: XmlNode = { [verb]: { [`${object}:${verb}`]: { [`@_xmlns:${object}`]: NS[object], ...body } } };
  if (extension) node.extension = extension;
  return { name: `${object}:${verb}`, read: verb === 'info' || verb === 'check', node };
}

export const commandXml = (command: EppCommand, clTRID: string) => eppDocument({ command: { ...command.node, clTRID } });

export const helloXml = () => eppDocument({ hello: '' });

export function loginCommand(clientId: string, password: string, objURIs: string[], extURIs: string[]): EppCommand {
  const svcs: XmlNode = { objURI: objURIs };
  if (extURIs.length) svcs.svcExtension = { extURI: extURIs };
  return {
    name: 'login',
    read: false,
    node: { login: { clID: clientId, pw: password, options: { version: '1.0', lang: 'en' }, svcs } },
  };
}

export const logoutCommand = (): EppCommand => ({ name: 'logout', read: false, node: { logout: '' } });
