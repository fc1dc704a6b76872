import { isIPv6 } from 'node:net';
import { CAA_TAGS, DEFAULT_PRIORITY, DNS_LIMITS, type DnsType, hasPriority } from '@atalaya/contract';
import { FieldErrors } from '../../http/errors.ts';
import { normaliseHost } from './names.ts';

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const PORT = /^(0|[1-9]\d{0,4})$/;

/** The compressed, lower-case RFC 5952 spelling, so the list shows what a resolver prints. */
export function canonicalIPv6(text: string): string | null {
  if (!isIPv6(text) || text.includes('%')) return null;
  return new URL(`http://[${text}]/`).hostname.slice(1, -1);
}

function srvValue(value: string): string {
  const [weight, port, target, ...rest] = value.trim().split(/\s+/);
  const inRange = (n: string | undefined) => n !== undefined && PORT.test(n) && Number(n) <= 65535;
  if (rest.length > 0 || !inRange(weight) || !inRange(port) || !target) throw FieldErrors.one('value', 'dns.srv_value');
  return `${Number(weight)} ${Number(port)} ${normaliseHost(target, true)}`;
}

const CAA_ISSUER = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;
const CAA_PARAM = /^[a-z0-9]+=[\x21-\x7e]*$/i;

/** `flag tag "text"`: issue/issuewild name a CA domain (or `;` for none), iodef a URL. */
function caaValue(value: string): string {
  const match = /^\s*(\S+)\s+(\S+)\s+(.*?)\s*$/s.exec(value);
  if (!match) throw FieldErrors.one('value', 'dns.caa_value');
  const [, flag, tag, quoted] = match;
  if (!/^\d{1,3}$/.test(flag) || Number(flag) > 255) throw FieldErrors.one('value', 'dns.caa_flag');
  if (!(CAA_TAGS as readonly string[]).includes(tag)) throw FieldErrors.one('value', 'dns.caa_tag');
  const text = /^"(.*)"$/s.exec(quoted)?.[1] ?? quoted;
  if (text.length > DNS_LIMITS.caaValue || /["\\]/.test(text) || !/^[\x20-\x7e]*$/.test(text)) {
    throw FieldErrors.one('value', tag === 'iodef' ? 'dns.iodef' : 'dns.caa_text');
  }
  if (tag === 'iodef') {
    if (!isIodefUrl(text)) throw FieldErrors.one('value', 'dns.iodef');
  } else {
    const [issuer, ...params] = text.split(';').map((s) => s.trim());
    const issuerOk = issuer === '' || CAA_ISSUER.test(issuer.toLowerCase());
    if (!issuerOk || (issuer === '' && params.some(Boolean)) || !params.every((p) => p === '' || CAA_PARAM.test(p))) {
      throw FieldErrors.one('value', 'dns.caa_text');
    }
  }
  return `${Number(flag)} ${tag} "${tag === 'iodef' ? text : issueText(text)}"`;
}

/** The CA domain in lower case, its parameters (case-sensitive account URIs) as written. */
function issueText(text: string): string {
  const [issuer, ...params] = text.split(';').map((s) => s.trim());
  if (issuer === '') return text.includes(';') ? ';' : '';
  return [issuer.toLowerCase(), ...params.filter(Boolean)].join('; ');
}

function isIodefUrl(text: string): boolean {
  if (/\s/.test(text)) return false;
  try {
    const url = new URL(text);
    if (url.protocol === 'mailto:') return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(url.pathname);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function txtValue(value: string): string {
  if (value.includes('\u0000')) throw FieldErrors.one('value', 'dns.txt_invalid');
  if (Buffer.byteLength(value, 'utf8') > DNS_LIMITS.txtBytes) {
    throw FieldErrors.one('value', 'dns.txt_too_long', { max: DNS_LIMITS.txtBytes });
  }
  return value;
}

/** A value as entered, checked for its type and stored in one canonical spelling. */
export function normaliseValue(type: DnsType, value: string): string {
  switch (type) {
    case 'A':
      if (!IPV4.test(value.trim())) throw FieldErrors.one('value', 'validation.ipv4');
      return value.trim();
    case 'AAAA': {
      const ip = canonicalIPv6(value.trim());
      if (!ip) throw FieldErrors.one('value', 'validation.ipv6');
      return ip;
    }
    case 'CNAME':
    case 'ANAME':
      return normaliseHost(value, false);
    case 'NS':
    case 'MX':
      return normaliseHost(value, true);
    case 'SRV':
      return srvValue(value);
    case 'CAA':
      return caaValue(value);
    case 'TXT':
      return txtValue(value);
  }
}

/** MX and SRV carry a priority (default 20); the other types none, whatever was sent. */
export function normalisePriority(type: DnsType, priority: number | '' | undefined): number | null {
  if (!hasPriority(type)) return null;
  return priority === '' || priority === undefined ? DEFAULT_PRIORITY : priority;
}
