import type { DnssecType } from '@atalaya/contract';
import type { DsData, ZoneKey } from '../../../drivers/dns/dnssec.ts';
import type { SecDns, SecDnsData } from '../../../drivers/registry/interface.ts';

/** What the registry takes for a key: DS data, or the key itself where the TLD wants key data (RFC 5910). */
export function secDnsOf(type: DnssecType, key: ZoneKey, ds: DsData): SecDnsData {
  return type === 'pubkey'
    ? { type, keyTag: ds.keyTag, algorithm: key.algorithm, digestType: null, digest: key.publicKey, flags: key.flags, protocol: 3 }
    : { type, keyTag: ds.keyTag, algorithm: ds.algorithm, digestType: ds.digestType, digest: ds.digest, flags: null, protocol: null };
}

/** The registry's record that stands for this DS of this key, if it holds one. */
export function heldFor(held: SecDns[], key: ZoneKey, ds: DsData): SecDns | undefined {
  return held.find((h) =>
    h.type === 'pubkey'
      ? h.digest === key.publicKey && h.algorithm === key.algorithm
      : h.keyTag === ds.keyTag && h.algorithm === ds.algorithm && h.digestType === ds.digestType && h.digest.toUpperCase() === ds.digest,
  );
}
