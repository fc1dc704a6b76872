import { domainToASCII } from 'node:url';

/** A fully qualified domain name (IDN accepted), in punycode and lower case; null when invalid. */
export function toDomainName(value: string): string | null {
  const trimmed = value.trim().replace(/\.$/, '');
  if (!trimmed || trimmed.length > 253) return null;
  const ascii = domainToASCII(trimmed).toLowerCase();
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2) return null;
  const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
  if (!labels.every((l) => label.test(l))) return null;
  return /^[a-z]{2,63}$|^xn--[a-z0-9-]{1,59}$/.test(labels.at(-1)!) ? ascii : null;
}

export const USERNAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;
