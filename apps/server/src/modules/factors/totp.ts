import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** RFC 6238 as authenticator apps use it: HMAC-SHA-1, 6 digits, 30-second steps from the Unix epoch. */
export const TOTP = { digits: 6, period: 30, algorithm: 'sha1' } as const;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=]+/g, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 160 bits, the HMAC-SHA-1 block the RFC recommends, as base32 for the apps. */
export const newTotpSecret = () => base32Encode(randomBytes(20));

/** RFC 4226 HOTP of one counter value, with the digits asked (dynamic truncation). */
export function hotp(key: Buffer, counter: number, digits: number = TOTP.digits, algorithm: string = TOTP.algorithm): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The time step of a Unix time in seconds. */
export const stepAt = (seconds: number) => Math.floor(seconds / TOTP.period);

/** The code of a base32 secret at a Unix time (what an authenticator app shows then). */
export const totpCode = (secret: string, seconds: number) => hotp(base32Decode(secret), stepAt(seconds));

/**
 * The time step a code belongs to, looking one step either side of now (a clock a little off, a
 * code typed as it turned), or null. Steps at or before `lastStep` were used already and never
 * match, so a code is good once. Compared in constant time.
 */
export function matchTotp(secret: string, code: string, seconds: number, lastStep: number): number | null {
  const key = base32Decode(secret);
  const now = stepAt(seconds);
  for (const step of [now - 1, now, now + 1]) {
    if (step <= lastStep) continue;
    const expected = Buffer.from(hotp(key, step));
    const given = Buffer.from(code.padEnd(expected.length).slice(0, expected.length));
    if (timingSafeEqual(expected, given)) return step;
  }
  return null;
}

/** The otpauth:// URI authenticator apps read from the QR code. */
export function otpauthUri(secret: string, issuer: string, account: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  const query = new URLSearchParams({ secret, issuer, algorithm: 'SHA1', digits: String(TOTP.digits), period: String(TOTP.period) });
  return `otpauth://totp/${label}?${query.toString()}`;
}
