import { isIPv4, isPartialIPv4 } from '@atalaya/contract';

/**
 * docs/behaviour/shell-session-domains.md#validation, as the user types an IPv4 address: anything but digits and dots is dropped, a dot
 * follows the third digit of a group, and an edit that makes a group longer than 3 digits or a
 * fifth group is refused (the previous text stays).
 */
export function typeIp(previous: string, next: string): string {
  let text = next
    .replace(/[^\d.]/g, '')
    .replace(/\.{2,}/g, '.')
    .replace(/^\./, '');
  const groups = text.split('.');
  if (groups.length > 4 || groups.some((g) => g.length > 3)) return previous;
  const growing = text.length > previous.length;
  if (growing && groups.length < 4 && groups[groups.length - 1].length === 3) text += '.';
  return text;
}

/** Complete (four groups) or, in partial mode, one to three groups; empty is left to `required`. */
export const ipValid = (value: string, partial = false) => value === '' || isIPv4(value) || (partial && isPartialIPv4(value));
