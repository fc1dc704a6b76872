import { generateKeyPairSync } from 'node:crypto';

/** A DKIM signing algorithm: RSA 2048 everywhere, Ed25519 (RFC 8463) beside it where configured. */
export type DkimAlgorithm = 'rsa' | 'ed25519';

export interface DkimKeyPair {
  algorithm: DkimAlgorithm;
  privateKeyPem: string;
  /** The `p=` value: SubjectPublicKeyInfo for RSA, the raw 32-byte key for Ed25519, base64. */
  publicKey: string;
}

export function generateDkimKey(algorithm: DkimAlgorithm): DkimKeyPair {
  if (algorithm === 'rsa') {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return {
      algorithm,
      privateKeyPem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
      publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    };
  }
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  // The SPKI of an Ed25519 key is a 12-byte header and the 32-byte key; DKIM publishes the key alone.
  const raw = publicKey.export({ type: 'spki', format: 'der' }).subarray(-32);
  return { algorithm, privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey: raw.toString('base64') };
}

/** The TXT record's text at `<selector>._domainkey.<domain>`. */
export const dkimRecord = (algorithm: DkimAlgorithm, publicKey: string) => `v=DKIM1; k=${algorithm}; p=${publicKey}`;

/**
 * A TXT value as DNS carries it: character-strings of at most 255 bytes each (RFC 1035 3.3.14).
 * A DKIM record is ASCII, so a character is a byte; an RSA 2048 record (about 410) takes two.
 */
export function txtStrings(text: string): string[] {
  if (/[^\x20-\x7e]/.test(text)) throw new Error('a DKIM, SPF or DMARC record is printable ASCII');
  return text.match(/.{1,255}/g) ?? [''];
}
