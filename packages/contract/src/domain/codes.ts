import type { Area } from '../permissions.ts';
/** Code tables of the domain area (docs/behaviour/shell-session-domains.md#code-tables), and the subset a registry accepts for new DS data. */

export const DNSSEC_ALGORITHMS: Record<number, string> = {
  1: 'RSA/MD5',
  2: 'Diffie-Hellman',
  3: 'DSA/SHA1',
  5: 'RSA/SHA-1',
  6: 'DSA-NSEC3-SHA1',
  7: 'RSASHA1-NSEC3-SHA1',
  8: 'RSA/SHA-256',
  10: 'RSA/SHA-512',
  12: 'GOST R 34.10-2001',
  13: 'ECDSA P-256 SHA-256',
  14: 'ECDSA P-384 SHA-384',
  15: 'ED25519',
  16: 'ED448',
  253: 'private (domain name)',
  254: 'private (OID)',
};

export const DIGEST_TYPES: Record<number, string> = { 1: 'SHA-1', 2: 'SHA-256', 3: 'GOST R 34.11-94', 4: 'SHA-384' };

/** Hex characters of a digest of each type: SHA-1 160 bits, SHA-256 and GOST 256, SHA-384 384. */
export const DIGEST_LENGTHS: Record<number, number> = { 1: 40, 2: 64, 3: 64, 4: 96 };

export const DNSSEC_FLAGS: Record<number, string> = { 256: 'ZSK', 257: 'KSK' };
/** RFC 4034 §2.1.2: the protocol field of a DNSKEY is always 3. */
export const DNSSEC_PROTOCOLS: Record<number, string> = { 3: 'DNSSEC' };

/**
 * What `createinit` offers. RFC 8624 says MUST NOT for RSA/MD5 and GOST R 34.10, and
 * Diffie-Hellman and the private algorithms cannot sign a zone, so none of them is offered.
 */
export const OFFERED_ALGORITHMS = [3, 5, 6, 7, 8, 10, 13, 14, 15, 16] as const;
export const OFFERED_DIGEST_TYPES = [1, 2, 3, 4] as const;

export const DNSSEC_TYPES = ['digest', 'pubkey'] as const;
export type DnssecType = (typeof DNSSEC_TYPES)[number];

export const DNS_MODES = ['mantenerDNS', 'defaultDNS', 'setDNS'] as const;
export type DnsMode = (typeof DNS_MODES)[number];

export const CONTACT_TYPES = ['registrant', 'admin', 'billing', 'tech'] as const;
export type ContactType = (typeof CONTACT_TYPES)[number];
/** The three contacts an `all_contacts` save writes at once; the registrant is the owner's own call. */
export const OTHER_CONTACT_TYPES = ['admin', 'billing', 'tech'] as const;
export const CONTACT_MODES = ['only_contact', 'all_contacts'] as const;

export const DOMAIN_TOGGLES = ['block', 'transferblock', 'whoisprivacy'] as const;
export type DomainToggle = (typeof DOMAIN_TOGGLES)[number];
/**
 * The area each toggle of `domain.toggle` (an `anyOf` call) needs, the one place it is said: the
 * server narrows the call to it and the web shows and re-checks each switch by it. Block and whois
 * privacy are "others" (docs/behaviour/shell-session-domains.md#permissions); the transfer block has its own area.
 */
export const TOGGLE_AREA = {
  block: 'domain_others',
  whoisprivacy: 'domain_others',
  transferblock: 'domain_transferblock',
} as const satisfies Record<DomainToggle, Area>;
