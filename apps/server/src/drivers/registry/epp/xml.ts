import { createRequire } from 'node:module';
import { EPP_NS } from '@atalaya/contract/epp';

/** The EPP namespaces, shared with the other side of the protocol (packages/contract/src/epp.ts). */
export const NS = EPP_NS;

/** A node as fast-xml-parser builds and reads it: `@_` attributes, `#text` text, arrays for repeated elements. */
export type XmlNode = { [name: string]: unknown };

// Elements that may repeat anywhere in the responses the driver reads: always arrays, so that one
// occurrence reads like several. Namespace prefixes are dropped: each element is read under the
// parent the command expects, so `infData` of domain and of secDNS never meet.
const REPEATED = new Set(['result', 'status', 'contact', 'hostObj', 'hostAttr', 'hostAddr', 'host', 'addr', 'street', 'postalInfo']);
const REPEATED_ANYWHERE = new Set(['objURI', 'extURI', 'version', 'lang', 'dsData', 'keyData', 'cd', 'value', 'extValue']);

type XmlLibrary = typeof import('fast-xml-parser');
let library: { builder: InstanceType<XmlLibrary['XMLBuilder']>; parser: InstanceType<XmlLibrary['XMLParser']> } | undefined;

/**
 * The builder and parser, made with the first frame: only an installation on the epp driver holds
 * the XML library in memory. Loaded synchronously (its CommonJS build) so that building and reading
 * a frame stay plain functions.
 */
function xmlLibrary() {
  if (library) return library;
  const { XMLBuilder, XMLParser } = createRequire(import.meta.url)('fast-xml-parser') as XmlLibrary;
  library = {
    // Every value goes through the builder, which escapes it: user data is never spliced into markup.
    builder: new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', suppressEmptyNode: true }),
    parser: new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@_',
      removeNSPrefix: true,
      parseTagValue: false,
      parseAttributeValue: false,
      trimValues: true,
      processEntities: true,
      isArray: (name) => REPEATED.has(name) || REPEATED_ANYWHERE.has(name),
    }),
  };
  return library;
}

/** A whole EPP document around `body` (the children of <epp>). */
export function eppDocument(body: XmlNode): string {
  return xmlLibrary().builder.build({ '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' }, epp: { '@_xmlns': NS.epp, ...body } });
}

/** The <epp> element of a received document, or an error when it is not one. */
export function readEpp(xml: string): XmlNode {
  const doc = xmlLibrary().parser.parse(xml) as XmlNode;
  const epp = doc.epp;
  if (!epp || typeof epp !== 'object') throw new Error('epp: the frame is not an EPP document');
  return epp as XmlNode;
}

/** The text of an element read by the parser (a string, or an object with `#text` when it has attributes). */
export function text(node: unknown): string {
  if (node === undefined || node === null) return '';
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean') return String(node);
  const value = (node as XmlNode)['#text'];
  return value === undefined ? '' : String(value);
}

export const attr = (node: unknown, name: string): string =>
  node && typeof node === 'object' ? String((node as XmlNode)[`@_${name}`] ?? '') : '';

/** A child read as a list, whether it came once, several times or not at all. */
export function list(node: unknown, name: string): unknown[] {
  if (!node || typeof node !== 'object') return [];
  const value = (node as XmlNode)[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

export const child = (node: unknown, name: string): XmlNode | undefined =>
  node && typeof node === 'object' ? ((node as XmlNode)[name] as XmlNode | undefined) : undefined;
