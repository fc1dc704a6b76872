import { domainToASCII, domainToUnicode } from 'node:url';
import { searchKey } from '@atalaya/contract';

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

/**
 * What the paged lists filter and sort an item by (item.search): its name as people write it
 * (Unicode, not punycode), lower-cased and without accents, so 'nandu' finds 'xn--and-6ma2c.es'
 * (ñandú.es); a punycode name also keeps its ASCII form, so either spelling finds it.
 */
export function itemSearchText(reference: string) {
  const written = searchKey(domainToUnicode(reference) || reference);
  return written === reference ? reference : `${written} ${reference}`;
}

export const USERNAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

// Characters no one sees (soft hyphen, zero-width space and joiners, BOM, variation selectors…)
// and the full stops other scripts type for '.': UTS 46 maps them, and so must every comparison.
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
const FULL_STOPS = /[\u3002\uFF0E\uFF61]/g;

/** Typed text reduced to what it reads as: compatibility forms folded (NFKC), invisible characters dropped, trimmed. */
const visibleText = (value: string) => value.normalize('NFKC').replace(IGNORABLE, '').trim();

/**
 * The one spelling of a sign-in realm: `example.com.`, `ex\u00ADample.com`, `ｅxample.com`,
 * `example。com` and `EXAMPLE.com` are all `example.com` (an IDN in punycode). A text that is no
 * domain name at all is still reduced the same way, so that it names one key too.
 */
export function canonicalRealm(value: string): string {
  const text = visibleText(value).replace(FULL_STOPS, '.').replace(/\.$/, '').toLowerCase();
  return toDomainName(text) ?? text;
}

/** The one spelling of a username: compatibility forms folded, invisible characters dropped, lower case. */
export const canonicalUsername = (value: string) => visibleText(value).toLowerCase();
