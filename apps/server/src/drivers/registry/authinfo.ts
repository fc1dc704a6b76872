import { randomInt } from 'node:crypto';

// No look-alikes (0/O, 1/l/I) so that a code read aloud or retyped survives.
const CLASSES = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '!#$%*+-=?@_'];

/**
 * A fresh auth code: 16 characters (≈ 95 bits) drawn with a CSPRNG, at least one of each class,
 * because many registries' authInfo policies demand upper, lower, digit and symbol.
 */
export function generateAuthInfo(length = 16): string {
  const all = CLASSES.join('');
  const chars = CLASSES.map((set) => set[randomInt(set.length)]);
  while (chars.length < length) chars.push(all[randomInt(all.length)]);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}

/**
 * The length of an auth code made on request: 22 characters of this 77-character alphabet carry
 * about 137 bits, above the 128 bits RFC 9154 asks of a code that protects a transfer.
 */
export const FRESH_AUTHINFO_LENGTH = 22;
