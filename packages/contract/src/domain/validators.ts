import { DIGEST_LENGTHS } from './codes.ts';

/**
 * Pure validators shared by the forms and the routes. Each takes the text as typed (or as already
 * normalised) and never throws; the property tests in validators.test.ts hold them to their word.
 */

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TLD = /^[a-z]{2,63}$|^xn--[a-z0-9-]{1,59}$/;

/** A fully qualified host name in lower-case ASCII (IDN already in punycode): LDH labels, ≥ 2 of them. */
export function isHostName(value: string): boolean {
  if (value.length === 0 || value.length > 253) return false;
  const labels = value.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return false;
  return TLD.test(labels[labels.length - 1]);
}

/**
 * The stored form of a host name as typed: trimmed, without the root dot, lower case, IDN in
 * punycode (the URL parser applies UTS #46 in Node and in browsers alike); null when invalid.
 */
export function toHostName(input: string): string | null {
  const trimmed = input.trim().replace(/\.$/, '');
  if (trimmed.length === 0 || trimmed.length > 253) return null;
  let ascii = trimmed.toLowerCase();
  // Anything outside printable ASCII means IDN.
  if (/[^\x20-\x7e]/.test(trimmed)) {
    // Characters that would make the URL parser read only part of the text as the host.
    if (/[\s/?#:@%\\[\]]/.test(trimmed)) return null;
    try {
      ascii = new URL(`http://${trimmed}/`).hostname;
    } catch {
      return null;
    }
  }
  return isHostName(ascii) ? ascii : null;
}

/** A host name equal to the domain or under it (glue records live inside their domain). */
export const isUnderDomain = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);
const IPV4_PARTIAL = new RegExp(`^${OCTET}(?:\\.${OCTET}){0,2}$`);

/** Dotted quad, each group 0–255 without leading zeros (a leading zero reads as octal elsewhere). */
export const isIPv4 = (value: string) => IPV4.test(value);
/** Partial mode: one to three groups. */
export const isPartialIPv4 = (value: string) => IPV4_PARTIAL.test(value);

const HEXTET = /^[0-9a-fA-F]{1,4}$/;
const groupsOf = (text: string) => (text === '' ? [] : text.split(':'));

/** RFC 4291 §2.2 text forms: eight groups, one `::`, and an optional dotted quad at the end. */
export function isIPv6(value: string): boolean {
  if (value.length < 2 || value.length > 45) return false;
  const lastColon = value.lastIndexOf(':');
  if (lastColon < 0) return false;
  let text = value;
  const tail = value.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!isIPv4(tail)) return false;
    // A dotted quad stands for the last two groups.
    text = `${value.slice(0, lastColon + 1)}0:0`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return false;
  if (halves.length === 2) {
    const groups = [...groupsOf(halves[0]), ...groupsOf(halves[1])];
    return groups.length <= 7 && groups.every((g) => HEXTET.test(g));
  }
  const groups = text.split(':');
  return groups.length === 8 && groups.every((g) => HEXTET.test(g));
}

/** A DS digest: hexadecimal of exactly the length its digest type produces. */
export function isDigest(value: string, digestType: number): boolean {
  const length = DIGEST_LENGTHS[digestType];
  return length !== undefined && value.length === length && /^[0-9a-fA-F]+$/.test(value);
}

/** A DNSKEY public key: base64 (RFC 4648, padded), as EPP keyData's pubKey carries it. */
export function isPublicKey(value: string): boolean {
  return value.length >= 16 && value.length <= 4096 && value.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(value);
}

/**
 * A phone in the EPP form of E.164 (RFC 5733 §4): `+CC.NUMBER`, a country code of 1–3 digits not
 * starting with 0, and at most 15 digits in all.
 */
export function isPhone(value: string): boolean {
  const match = /^\+([1-9]\d{0,2})\.(\d{1,14})$/.exec(value);
  return match !== null && match[1].length + match[2].length <= 15;
}

/** An ISO 3166-1 alpha-2 code in form only; the server checks it against the real list. */
export const isCountryCode = (value: string) => /^[A-Z]{2}$/.test(value);
