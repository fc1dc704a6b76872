import { describe, expect, it } from 'vitest';
import { AREAS } from './permissions.ts';
import { expiryOf, isAbove, levelsText, lowerLevel, parseCidr, parseLevels, splitCidrs } from './tokens.ts';

describe('token scopes', () => {
  it('read "all" first and let a later pair override it, and write back only the areas above disabled', () => {
    const parsed = parseLevels('all=read, service_dnszone=write,domain_authcode=disabled');
    if (!('map' in parsed)) throw new Error('not parsed');
    expect(parsed.map.domain).toBe('read');
    expect(parsed.map.service_dnszone).toBe('write');
    expect(levelsText(parsed.map).split(',')).toHaveLength(AREAS.length - 1);
    expect(levelsText(parsed.map)).not.toContain('domain_authcode');
  });

  it.each([
    ['', { kind: 'empty' }],
    ['domain=owner', { kind: 'level', value: 'owner' }],
    ['dominio=read', { kind: 'area', value: 'dominio' }],
    ['domain', { kind: 'level', value: '' }],
  ])('refuse %j naming the problem', (text, problem) => {
    expect(parseLevels(text)).toEqual({ problem });
  });

  it('take the lower of two levels, an absent one being disabled', () => {
    expect(lowerLevel('write', 'read')).toBe('read');
    expect(lowerLevel('read', undefined)).toBe('disabled');
    expect(isAbove('write', 'read')).toBe(true);
    expect(isAbove('read', 'read')).toBe(false);
  });
});

describe('token address ranges', () => {
  it.each([
    ['192.0.2.0/24', { address: '192.0.2.0', prefix: 24, family: 'ipv4' }],
    ['0.0.0.0/0', { address: '0.0.0.0', prefix: 0, family: 'ipv4' }],
    ['192.0.2.7', { address: '192.0.2.7', prefix: 32, family: 'ipv4' }],
    ['2001:db8::/32', { address: '2001:db8::', prefix: 32, family: 'ipv6' }],
    ['::1', { address: '::1', prefix: 128, family: 'ipv6' }],
    ['::/128', { address: '::', prefix: 128, family: 'ipv6' }],
  ])('accept %s', (text, cidr) => {
    expect(parseCidr(text)).toEqual(cidr);
  });

  it.each(['192.0.2.0/33', '2001:db8::/129', '192.0.2.0/', '192.0.2.0/24/1', '192.0.2/24', 'example.com/24', '192.0.2.0/-1', ''])(
    'refuse %j',
    (text) => {
      expect(parseCidr(text)).toBeNull();
    },
  );

  it('split on commas, spaces and new lines', () => {
    expect(splitCidrs(' 192.0.2.0/24,\n2001:db8::/32  10.0.0.1 ')).toEqual(['192.0.2.0/24', '2001:db8::/32', '10.0.0.1']);
  });
});

describe('token expiry', () => {
  it('ends at 00:00 UTC after the day given', () => {
    expect(expiryOf('2028-02-29')).toBe(Date.parse('2028-03-01T00:00:00Z') / 1000);
  });
  it.each(['2027-02-29', '2027-13-01', '27-01-01', '2027-1-1', 'tomorrow'])('refuse %j', (text) => {
    expect(expiryOf(text)).toBeNull();
  });
});
