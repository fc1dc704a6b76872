import { createHash, generateKeyPairSync } from 'node:crypto';
import { keyTag } from '../registry/keytag.ts';

/** A DS record's data (RFC 4034 §5): what the registry publishes in the parent zone. */
export interface DsData {
  keyTag: number;
  algorithm: number;
  digestType: number;
  /** Hex, upper case. */
  digest: string;
}

/** A signing key of a zone as its DNSKEY record shows it, with the DS records that point at it. */
export interface ZoneKey {
  /** The backend's id of the key. */
  id: string;
  flags: number;
  algorithm: number;
  /** Base64. */
  publicKey: string;
  keyTag: number;
  active: boolean;
  /** SHA-256 DS for a key-signing key (flags 257), none for a zone-signing key. */
  ds: DsData[];
}

export interface DnssecState {
  signed: boolean;
  keys: ZoneKey[];
}

/** ECDSA P-256 with SHA-256 (RFC 6605), PowerDNS's default and the one the local driver makes. */
export const ECDSAP256SHA256 = 13;
export const SHA256_DIGEST = 2;
/** A key-signing key, or a combined key (CSK) that signs the zone too: SEP bit set. */
export const KSK_FLAGS = 257;

/** A domain name in canonical wire form (RFC 4034 §6.2): lower case labels, each after its length. */
export function wireName(name: string): Buffer {
  const labels = name.replace(/\.$/, '').toLowerCase().split('.').filter(Boolean);
  return Buffer.concat([...labels.map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l, 'ascii')])), Buffer.from([0])]);
}

/** RFC 4034 §5.1.4: the DS digest is over the owner name and the DNSKEY RDATA (flags, protocol 3, algorithm, key). */
export function dsOf(zone: string, flags: number, algorithm: number, publicKey: string, digestType = SHA256_DIGEST): DsData {
  const rdata = Buffer.concat([Buffer.from([flags >> 8, flags & 0xff, 3, algorithm]), Buffer.from(publicKey, 'base64')]);
  const hash = digestType === 1 ? 'sha1' : digestType === 4 ? 'sha384' : 'sha256';
  const digest = createHash(hash)
    .update(Buffer.concat([wireName(zone), rdata]))
    .digest('hex')
    .toUpperCase();
  return { keyTag: keyTag(flags, 3, algorithm, publicKey), algorithm, digestType, digest };
}

/** A new ECDSA P-256 key: the DNSKEY public key (X then Y, RFC 6605 §4) and the private key as PKCS#8 PEM. */
export function newSigningKey(): { publicKey: string; privatePem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const raw = Buffer.concat([Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
  return { publicKey: raw.toString('base64'), privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() };
}

/** Two DS records are the same when tag, algorithm, digest type and digest agree (digest case aside). */
export const sameDs = (a: DsData, b: DsData) =>
  a.keyTag === b.keyTag &&
  a.algorithm === b.algorithm &&
  a.digestType === b.digestType &&
  a.digest.toUpperCase() === b.digest.toUpperCase();
