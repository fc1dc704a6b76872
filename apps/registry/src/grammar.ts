import { isIP } from 'node:net';
import { type Element, nameOf, prefixOf } from './xml.ts';

/**
 * A declarative grammar in the spirit of the RFCs' XML schemas: each element names its namespace,
 * the type of its text, its attributes, and its content as a sequence of particles (an element or a
 * choice of sequences) with minimum and maximum counts. `validate` walks a frame against it and
 * throws a GrammarError naming the first element that is wrong.
 */
export type ValueType = { describe: string; test: (value: string) => boolean };
export interface AttrSpec {
  type: ValueType;
  required?: boolean;
}
export interface ElementSpec {
  ns: string;
  name: string;
  text?: ValueType;
  attrs?: Record<string, AttrSpec>;
  content?: Particle[];
}
export interface Particle {
  element?: ElementSpec;
  choice?: Particle[][];
  min: number;
  max: number;
}

export class GrammarError extends Error {}

export const one = (element: ElementSpec): Particle => ({ element, min: 1, max: 1 });
export const opt = (element: ElementSpec): Particle => ({ element, min: 0, max: 1 });
export const many = (element: ElementSpec, min = 0, max = Number.POSITIVE_INFINITY): Particle => ({ element, min, max });
export const choice = (min: number, max: number, ...alternatives: Particle[][]): Particle => ({ choice: alternatives, min, max });

/** An element factory bound to one namespace: `domain('name', { text: domainName })`. */
export function inNamespace(ns: string) {
  return (name: string, spec: Omit<ElementSpec, 'ns' | 'name'> = {}): ElementSpec => ({ ns, name, ...spec });
}

const shown = (spec: ElementSpec) => `<${prefixOf(spec.ns)}${spec.name}>`;
const found = (e: Element) => `<${nameOf(e)}>`;

/** The elements that can start this sequence of particles. */
function firsts(particles: Particle[]): ElementSpec[] {
  const out: ElementSpec[] = [];
  for (const p of particles) {
    if (p.element) out.push(p.element);
    else for (const alternative of p.choice ?? []) out.push(...firsts(alternative));
    if (p.min > 0) break;
  }
  return out;
}

const is = (e: Element, spec: ElementSpec) => e.ns === spec.ns && e.local === spec.name;
const startsWith = (e: Element, particles: Particle[]) => firsts(particles).some((spec) => is(e, spec));
const matches = (e: Element, p: Particle) => (p.element ? is(e, p.element) : (p.choice ?? []).some((alt) => startsWith(e, alt)));

function expectedButFound(expected: ElementSpec[], e: Element | undefined, parent: Element): GrammarError {
  const names = expected.map(shown).join(' or ');
  if (!e) return new GrammarError(`missing ${names} in ${found(parent)}`);
  const sameName = expected.find((spec) => spec.name === e.local);
  if (sameName && sameName.ns !== e.ns) {
    return new GrammarError(`${found(e)} in ${found(parent)} is in namespace '${e.ns}', expected '${sameName.ns}'`);
  }
  return new GrammarError(`${found(e)} in ${found(parent)} where ${names} is expected (wrong order, or a missing element)`);
}

function matchSequence(parent: Element, particles: Particle[], start: number): number {
  let i = start;
  for (const p of particles) {
    let count = 0;
    while (count < p.max && i < parent.children.length && matches(parent.children[i], p)) {
      const e = parent.children[i];
      if (p.element) {
        validate(e, p.element);
        i++;
      } else {
        const alternative = (p.choice ?? []).find((alt) => startsWith(e, alt)) as Particle[];
        i = matchSequence(parent, alternative, i);
      }
      count++;
    }
    if (count < p.min) throw expectedButFound(p.element ? [p.element] : firsts([p]), parent.children[i], parent);
  }
  return i;
}

/** Checks an element (already known to have the spec's name) against its spec. */
export function validate(e: Element, spec: ElementSpec): void {
  for (const [name, attr] of Object.entries(spec.attrs ?? {})) {
    const value = e.attrs[name];
    if (value === undefined) {
      if (attr.required) throw new GrammarError(`missing attribute '${name}' on ${found(e)}`);
    } else if (!attr.type.test(value)) {
      throw new GrammarError(`attribute '${name}' of ${found(e)} is '${value}', expected ${attr.type.describe}`);
    }
  }
  for (const name of Object.keys(e.attrs)) {
    if (!spec.attrs?.[name]) throw new GrammarError(`unexpected attribute '${name}' on ${found(e)}`);
  }
  if (spec.text) {
    if (e.children.length) throw new GrammarError(`${found(e)} holds a value, not the element ${found(e.children[0])}`);
    if (!spec.text.test(e.text)) throw new GrammarError(`${found(e)} is '${e.text}', expected ${spec.text.describe}`);
    return;
  }
  if (e.text) throw new GrammarError(`${found(e)} holds elements, not the text '${e.text.slice(0, 40)}'`);
  const end = matchSequence(e, spec.content ?? [], 0);
  if (end < e.children.length) {
    const extra = e.children[end];
    const known = allNames(spec.content ?? []).find((s) => s.name === extra.local && s.ns !== extra.ns);
    if (known) throw new GrammarError(`${found(extra)} in ${found(e)} is in namespace '${extra.ns}', expected '${known.ns}'`);
    throw new GrammarError(`unexpected ${found(extra)} in ${found(e)} (unknown, repeated or out of order)`);
  }
}

function allNames(particles: Particle[]): ElementSpec[] {
  return particles.flatMap((p) => (p.element ? [p.element] : (p.choice ?? []).flatMap(allNames)));
}

/** Checks a root element against the specs it may be. */
export function validateRoot(e: Element, spec: ElementSpec): void {
  if (!is(e, spec)) {
    if (e.local === spec.name) throw new GrammarError(`${found(e)} is in namespace '${e.ns}', expected '${spec.ns}'`);
    throw new GrammarError(`the root element is ${found(e)}, expected ${shown(spec)}`);
  }
  validate(e, spec);
}

// Value types of the RFCs' schemas, with the words an error message shows.
const type = (describe: string, test: (value: string) => boolean): ValueType => ({ describe, test });
export const token = (min = 1, max = 255) =>
  type(`a token of ${min} to ${max} characters`, (v) => v.length >= min && v.length <= max && !/[\t\n\r]|\s\s/.test(v));
export const anyText = type('text', () => true);
export const emptyText = type('an empty element', (v) => v === '');
export const integer = (min: number, max: number) =>
  type(`an integer from ${min} to ${max}`, (v) => /^[0-9]+$/.test(v) && Number(v) >= min && Number(v) <= max);
export const oneOf = (...values: string[]) => type(`one of ${values.join(', ')}`, (v) => values.includes(v));
export const boolean = oneOf('0', '1', 'true', 'false');
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;
export const hostName = type('a host name (letters, digits and hyphens, labels of 1 to 63, at least two labels)', (v) => {
  const labels = v.replace(/\.$/, '').split('.');
  return v.length <= 253 && labels.length >= 2 && labels.every((label) => LABEL.test(label));
});
export const dateTime = type(
  'a date and time like 2026-11-27T10:00:00.0Z',
  (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)),
);
export const date = type('a date like 2026-11-27', (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)));
export const ipAddress = type('an IPv4 or IPv6 address', (v) => isIP(v) !== 0);
export const email = type('an e-mail address', (v) => /^[^@\s]+@[^@\s]+$/.test(v));
export const e164 = type('a phone number like +34.912345678', (v) => v === '' || /^\+[0-9]{1,3}\.[0-9]{1,14}$/.test(v));
export const hex = type('hexadecimal digits', (v) => /^([0-9a-fA-F]{2})+$/.test(v));
export const base64 = type('base64', (v) => v.length > 0 && /^[A-Za-z0-9+/\s]+={0,2}$/.test(v));
export const countryCode = type('a two-letter country code', (v) => /^[A-Za-z]{2}$/.test(v));
export const clientId = token(3, 16);
export const password = type('a password of 6 to 16 characters', (v) => v.length >= 6 && v.length <= 16);
export const authPassword = type('an authorisation code of 1 to 255 characters', (v) => v.length >= 1 && v.length <= 255);
export const uri = type('a URI', (v) => /^[a-z][a-z0-9+.-]*:\S+$/i.test(v));
