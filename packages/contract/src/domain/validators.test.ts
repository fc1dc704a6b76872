import { isIPv4 as nodeIsIPv4, isIPv6 as nodeIsIPv6 } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DIGEST_LENGTHS } from './codes.ts';
import { isDigest, isHostName, isIPv4, isIPv6, isPartialIPv4, isPhone, toHostName } from './validators.ts';

const of = (chars: string, maxLength = 40) => fc.string({ unit: fc.constantFrom(...chars), maxLength });
const LDH = 'abcdefghijklmnopqrstuvwxyz0123456789';
const ldh = fc.constantFrom(...LDH);
const label = fc.oneof(
  ldh,
  fc.tuple(ldh, of(`${LDH}-`, 61), ldh).map(([a, mid, z]) => a + mid + z),
);
const tld = of('abcdefghijklmnopqrstuvwxyz', 10).filter((s) => s.length >= 2);
const hostName = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), tld)
  .map(([labels, top]) => [...labels, top].join('.'))
  .filter((h) => h.length <= 253);

describe('host names', () => {
  it('accepts every well-formed name, however it is cased or ends', () => {
    fc.assert(
      fc.property(hostName, (host) => {
        expect(isHostName(host)).toBe(true);
        expect(toHostName(`${host.toUpperCase()}.`)).toBe(host);
      }),
    );
  });

  it('refuses a name with any character outside letters, digits, hyphen and dot', () => {
    const bad = fc.constantFrom(' ', '_', '!', '@', '/', '*', ':', '\t', "'", '"', '\\', '%', '?', '#');
    fc.assert(
      fc.property(hostName, bad, fc.nat(), (host, char, at) => {
        const i = at % (host.length + 1);
        expect(isHostName(host.slice(0, i) + char + host.slice(i))).toBe(false);
      }),
    );
  });

  it('refuses empty labels, edge hyphens, long labels, long names, one label and numeric top levels', () => {
    fc.assert(
      fc.property(hostName, (host) => {
        expect(isHostName(`.${host}`)).toBe(false);
        expect(isHostName(host.replace('.', '..'))).toBe(false);
        expect(isHostName(`-${host}`)).toBe(false);
        expect(isHostName(host.replace('.', '-.'))).toBe(false);
        expect(isHostName(`${'a'.repeat(64)}.${host}`)).toBe(false);
        expect(isHostName(`${host}.1`)).toBe(false);
        expect(isHostName(host.split('.').at(-1)!)).toBe(false);
      }),
    );
    expect(isHostName(`${'a.'.repeat(126)}com`)).toBe(false);
  });

  it('normalises any text to null or a name it accepts, without throwing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
        const host = toHostName(text);
        if (host !== null) expect(isHostName(host)).toBe(true);
      }),
    );
    expect(toHostName('ÑANDÚ.es')).toBe('xn--and-6ma2c.es');
    expect(toHostName('ñandú.es/evil')).toBeNull();
  });
});

describe('IP addresses', () => {
  it('accepts every IPv4 and IPv6 address', () => {
    fc.assert(fc.property(fc.ipV4(), (ip) => void expect(isIPv4(ip)).toBe(true)));
    fc.assert(fc.property(fc.ipV6(), (ip) => void expect(isIPv6(ip)).toBe(true)));
  });

  it('agrees with Node on any text made of address characters', () => {
    fc.assert(
      fc.property(of('0123456789.', 18), (text) => void expect(isIPv4(text)).toBe(nodeIsIPv4(text))),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(of('0123456789abcdefABCDEF:.', 45), (text) => void expect(isIPv6(text)).toBe(nodeIsIPv6(text))),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.ipV6(), fc.nat(), (ip, at) => {
        const mutated = ip.slice(0, at % ip.length) + ip.slice((at % ip.length) + 1);
        expect(isIPv6(mutated)).toBe(nodeIsIPv6(mutated));
      }),
    );
  });

  it('accepts one to three groups in partial mode and nothing else', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 4 }), (groups) => {
        expect(isPartialIPv4(groups.join('.'))).toBe(groups.length <= 3);
      }),
    );
    expect(isPartialIPv4('256')).toBe(false);
  });
});

describe('DS digests', () => {
  it('accept hexadecimal of exactly the length of the digest type', () => {
    const type = fc.constantFrom(1, 2, 3, 4);
    fc.assert(
      fc.property(type, of('0123456789abcdefABCDEF', 100), (digestType, hex) => {
        expect(isDigest(hex, digestType)).toBe(hex.length === DIGEST_LENGTHS[digestType]);
      }),
    );
    fc.assert(
      fc.property(type, fc.string({ minLength: 96, maxLength: 96 }), (digestType, text) => {
        const cut = text.slice(0, DIGEST_LENGTHS[digestType]);
        expect(isDigest(cut, digestType)).toBe(/^[0-9a-fA-F]+$/.test(cut));
      }),
    );
    expect(isDigest('a'.repeat(40), 5)).toBe(false);
  });
});

describe('phones', () => {
  const digits = (min: number, max: number) => of('0123456789', max).filter((s) => s.length >= min);
  it('accept +CC.NUMBER with 15 digits at most', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999 }), digits(1, 14), (cc, number) => {
        expect(isPhone(`+${cc}.${number}`)).toBe(String(cc).length + number.length <= 15);
      }),
    );
  });

  it('refuse anything else', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999 }), digits(1, 12), fc.constantFrom(' ', '-', '', '.', '('), (cc, number, sep) => {
        expect(isPhone(`${cc}.${number}`)).toBe(false);
        expect(isPhone(`+${cc}${sep}${number}`)).toBe(sep === '.');
        expect(isPhone(`+0${cc}.${number}`)).toBe(false);
        expect(isPhone(`+${cc}.${number}x`)).toBe(false);
      }),
    );
    fc.assert(
      fc.property(
        fc.string(),
        (text) => void expect(isPhone(text)).toBe(/^\+[1-9]\d{0,2}\.\d+$/.test(text) && text.replace(/\D/g, '').length <= 15),
      ),
    );
  });
});
