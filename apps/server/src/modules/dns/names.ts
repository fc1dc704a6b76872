import { domainToASCII } from 'node:url';
import { DNS_LIMITS, SRV_OTHER_SERVICE, SRV_PROTOCOLS, SRV_SERVICES } from '@atalaya/contract';
import { FieldErrors } from '../../http/errors.ts';

/** One label after IDN → punycode; letters, digits, hyphens inside, underscores (for _dmarc, _sip…). */
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$/;
const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

function toAsciiLabel(label: string, field: string): string {
  if (label === '') throw FieldErrors.one(field, 'dns.name_invalid');
  // Only non-ASCII labels go through IDNA: it would refuse nothing here, but keeps `_x` untouched.
  const ascii = /^[\x20-\x7e]*$/.test(label) ? label.toLowerCase() : domainToASCII(label).toLowerCase();
  if (ascii.startsWith('xn--') && domainToASCII(ascii) === '') throw FieldErrors.one(field, 'dns.name_invalid');
  if (ascii === '*') return ascii;
  if (!ascii || !LABEL.test(ascii) || ascii.includes('.')) throw FieldErrors.one(field, 'dns.name_invalid');
  if (ascii.length > DNS_LIMITS.label) throw FieldErrors.one(field, 'dns.label_too_long', { max: DNS_LIMITS.label });
  return ascii;
}

export const fqdn = (zona: string, zone: string) => (zona ? `${zona}.${zone}` : zone);

/**
 * The `zona` field: the name relative to the zone ('' or '@' for the apex). A name ending in a dot,
 * or ending in the zone itself, is read as absolute and must lie inside the zone.
 */
export function normaliseZona(input: string, zone: string, type: string): string {
  let text = input.trim().toLowerCase();
  if (text === '@') text = '';
  const absolute = text.endsWith('.');
  if (absolute) text = text.slice(0, -1);
  const labels = text === '' ? [] : text.split('.').map((l) => toAsciiLabel(l, 'zona'));
  let name = labels.join('.');
  if (absolute || name === zone || name.endsWith(`.${zone}`)) {
    if (name !== zone && !name.endsWith(`.${zone}`)) throw FieldErrors.one('zona', 'dns.outside_zone', { zone });
    name = name === zone ? '' : name.slice(0, -zone.length - 1);
  }
  const parts = name === '' ? [] : name.split('.');
  if (parts.slice(1).includes('*')) throw FieldErrors.one('zona', 'dns.wildcard');
  if (fqdn(name, zone).length > DNS_LIMITS.name) throw FieldErrors.one('zona', 'dns.name_too_long', { max: DNS_LIMITS.name });
  if ((type === 'A' || type === 'AAAA' || type === 'MX') && parts.some((l) => l.includes('_'))) {
    throw FieldErrors.one('zona', 'dns.host_owner');
  }
  if (type === 'SRV') checkSrvName(parts);
  return name;
}

function checkSrvName(parts: string[]) {
  const [service, protocol] = parts;
  const knownService = (SRV_SERVICES as readonly string[]).includes(service ?? '') || SRV_OTHER_SERVICE.test(service ?? '');
  if (!knownService || !(SRV_PROTOCOLS as readonly string[]).includes(protocol ?? '')) {
    throw FieldErrors.one('zona', 'dns.srv_name');
  }
}

/**
 * A target host name (CNAME, ANAME, NS, MX, SRV), always fully qualified: a trailing dot is optional,
 * IDN becomes punycode, and the answer carries the trailing dot. MX, NS and SRV targets must be
 * strict host names (RFC 952/1123, as BIND's check-names wants); CNAME and ANAME may hold `_`.
 */
export function normaliseHost(input: string, strict: boolean, field = 'value'): string {
  const text = input.trim().replace(/\.$/, '');
  const labels = text.split('.');
  if (text === '' || labels.length < 2) throw FieldErrors.one(field, 'validation.hostname');
  const ascii = labels.map((l) => {
    try {
      return toAsciiLabel(l, field);
    } catch {
      throw FieldErrors.one(field, 'validation.hostname');
    }
  });
  if (ascii.includes('*') || (strict && !ascii.every((l) => HOST_LABEL.test(l)))) {
    throw FieldErrors.one(field, 'validation.hostname');
  }
  const name = ascii.join('.');
  if (name.length > DNS_LIMITS.name) throw FieldErrors.one(field, 'dns.name_too_long', { max: DNS_LIMITS.name });
  return `${name}.`;
}

/** Whether a fully qualified host (with its dot) lies inside the zone; its relative name if so. */
export function inZone(host: string, zone: string): string | null {
  const name = host.replace(/\.$/, '');
  if (name === zone) return '';
  return name.endsWith(`.${zone}`) ? name.slice(0, -zone.length - 1) : null;
}
