import { EPP_NS } from '@atalaya/contract/epp';
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';

/** The EPP namespaces, shared with the other side of the protocol (packages/contract/src/epp.ts). */
export const NS = EPP_NS;
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

/** The prefix an error message shows for a namespace, so `domain:name` reads as in the RFCs. */
export function prefixOf(ns: string): string {
  for (const [prefix, uri] of Object.entries(NS)) if (uri === ns) return prefix === 'epp' ? '' : `${prefix}:`;
  return ns ? `{${ns}}` : '';
}

/** An element of a received frame with its namespace resolved, whatever prefix the client chose. */
export interface Element {
  ns: string;
  local: string;
  attrs: Record<string, string>;
  children: Element[];
  text: string;
}

export const nameOf = (e: { ns: string; local: string }) => `${prefixOf(e.ns)}${e.local}`;

export class XmlError extends Error {}

type Ordered = Record<string, unknown> & { ':@'?: Record<string, string> };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

/** Reads one frame: well-formed XML without a DOCTYPE (no entity tricks), namespaces resolved. */
export function parseXml(text: string): Element {
  if (/<!DOCTYPE/i.test(text)) throw new XmlError('a DOCTYPE is not allowed in an EPP frame');
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new XmlError(`not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const roots = (parser.parse(text) as Ordered[]).filter((node) => !('#text' in node));
  if (roots.length !== 1) throw new XmlError('an EPP frame has exactly one root element');
  return resolve(roots[0], {});
}

function resolve(node: Ordered, scope: Record<string, string>): Element {
  const qname = Object.keys(node).find((key) => key !== ':@') as string;
  const rawAttrs = node[':@'] ?? {};
  const inScope = { ...scope };
  for (const [name, value] of Object.entries(rawAttrs)) {
    if (name === 'xmlns') inScope[''] = value;
    else if (name.startsWith('xmlns:')) inScope[name.slice(6)] = value;
  }
  const attrs: Record<string, string> = {};
  for (const [name, value] of Object.entries(rawAttrs)) {
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
    const colon = name.indexOf(':');
    // Only the schema-location hint may carry a prefix; any other qualified attribute is not EPP.
    if (colon > 0 && inScope[name.slice(0, colon)] === XSI) continue;
    attrs[name] = value;
  }
  const colon = qname.indexOf(':');
  const prefix = colon > 0 ? qname.slice(0, colon) : '';
  const local = colon > 0 ? qname.slice(colon + 1) : qname;
  const ns = inScope[prefix];
  if (ns === undefined) throw new XmlError(`the prefix '${prefix}' of <${qname}> is not declared`);
  const children: Element[] = [];
  let text = '';
  for (const child of (node[qname] as Ordered[]) ?? []) {
    if ('#text' in child) text += String(child['#text']);
    else children.push(resolve(child, inScope));
  }
  return { ns, local, attrs, children, text };
}

/** An element of a response: its qualified name (the prefix declared on an ancestor), attributes and content. */
export interface Node {
  name: string;
  attrs?: Record<string, string | undefined>;
  children?: Child[];
  text?: string;
}
/** A child slot: falsy values are left out, so optional elements read as `cond && x(…)`. */
export type Child = Node | undefined | null | false | '' | 0;

/** `x('domain:name', {avail: '1'}, 'example.test')` or `x('domain:chkData', {}, [children])`: a response node. */
export function x(name: string, attrs: Record<string, string | undefined> = {}, content?: string | Child[]): Node {
  return typeof content === 'string' ? { name, attrs, text: content } : { name, attrs, children: content ?? [] };
}

const builder = new XMLBuilder({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', suppressEmptyNode: true });

function toOrdered(node: Node): Ordered {
  const inner: Ordered[] = [];
  if (node.text !== undefined) inner.push({ '#text': node.text });
  for (const child of node.children ?? []) if (child) inner.push(toOrdered(child));
  const attrs = Object.fromEntries(Object.entries(node.attrs ?? {}).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return Object.keys(attrs).length ? { [node.name]: inner, ':@': attrs } : { [node.name]: inner };
}

/** The document for a response node, escaped by the builder (client data is never pasted into markup). */
export function buildXml(root: Node): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="no"?>${builder.build([toOrdered(root)])}`;
}

/** The first child with this namespace and local name. */
export function child(e: Element | undefined, ns: string, local: string): Element | undefined {
  return e?.children.find((c) => c.ns === ns && c.local === local);
}

export function childrenNamed(e: Element | undefined, ns: string, local: string): Element[] {
  return e ? e.children.filter((c) => c.ns === ns && c.local === local) : [];
}

export const textOf = (e: Element | undefined, ns: string, local: string) => child(e, ns, local)?.text;
