import type { DnssecType } from '@atalaya/contract';

/**
 * Per-registry policy by top-level domain. Red.es hands out a transfer key rather than an EPP
 * auth code, and EURid takes DNSKEY data (RFC 5910 keyData) where most registries take DS data.
 */
const tldOf = (name: string) => name.slice(name.lastIndexOf('.') + 1);

export const authKindOf = (name: string): 'authcode' | 'transferkey' => (tldOf(name) === 'es' ? 'transferkey' : 'authcode');

export const dnssecTypeOf = (name: string): DnssecType => (tldOf(name) === 'eu' ? 'pubkey' : 'digest');
