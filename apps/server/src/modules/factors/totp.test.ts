import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, stepAt, totpCode } from './totp.ts';

// RFC 6238 appendix B: the SHA-1 seed is the ASCII "12345678901234567890"; 8 digits there.
const SEED = Buffer.from('12345678901234567890', 'ascii');
const VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238, SHA-1)', () => {
  it.each(VECTORS)('gives the RFC test vector at time %i', (time, code) => {
    expect(hotp(SEED, stepAt(time), 8)).toBe(code);
  });

  it('gives the six last digits of the vector with the apps’ six-digit setting', () => {
    const secret = base32Encode(SEED);
    expect(totpCode(secret, 59)).toBe('287082');
    expect(totpCode(secret, 1111111109)).toBe('081804');
  });

  it('round-trips base32 (RFC 4648) and reads the RFC seed’s known encoding', () => {
    expect(base32Encode(SEED)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode('gezd gnbv gy3t qojq gezd gnbv gy3t qojq').equals(SEED)).toBe(true);
  });

  it('accepts the code of the step before and after, not two steps away', () => {
    const secret = base32Encode(SEED);
    const t = 1111111111;
    expect(matchTotp(secret, totpCode(secret, t - 30), t, 0)).toBe(stepAt(t) - 1);
    expect(matchTotp(secret, totpCode(secret, t + 30), t, 0)).toBe(stepAt(t) + 1);
    expect(matchTotp(secret, totpCode(secret, t - 60), t, 0)).toBeNull();
    expect(matchTotp(secret, totpCode(secret, t + 60), t, 0)).toBeNull();
  });

  it('refuses a code of a step already used, and of any step before it', () => {
    const secret = base32Encode(SEED);
    const t = 1111111111;
    expect(matchTotp(secret, totpCode(secret, t), t, stepAt(t))).toBeNull();
    expect(matchTotp(secret, totpCode(secret, t - 30), t, stepAt(t))).toBeNull();
    expect(matchTotp(secret, totpCode(secret, t + 30), t, stepAt(t))).toBe(stepAt(t) + 1);
  });

  it('refuses a wrong code of the right length', () => {
    const secret = base32Encode(SEED);
    const right = totpCode(secret, 59);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    expect(matchTotp(secret, wrong, 59, 0)).toBeNull();
  });
});
