import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { type CertificateInfo, SITES_LIMITS } from '@atalaya/contract';
import { type FieldError, FieldErrors } from '../../http/errors.ts';

export interface CertificateMaterial {
  cert: string;
  key: string;
  chain: string;
}

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([A-Za-z0-9+/=\r\n]+?)\r?\n?-----END \1-----/g;

/**
 * The PEM blocks of a field, or null when anything but blocks and white space is in it: text
 * pasted around a PEM (or a second, different kind of block) is refused instead of ignored.
 */
function pemBlocks(text: string): { label: string; pem: string }[] | null {
  const blocks: { label: string; pem: string }[] = [];
  let rest = text;
  for (const match of text.matchAll(BLOCK)) {
    blocks.push({ label: match[1], pem: match[0] });
    rest = rest.replace(match[0], '');
  }
  return rest.trim() === '' && blocks.length > 0 ? blocks : null;
}

const fail = (input: string, key: string, params?: Record<string, string | number>): FieldErrors =>
  new FieldErrors([{ input, key, params } satisfies FieldError]);

function parseCertificates(text: string, input: string): X509Certificate[] {
  const blocks = pemBlocks(text);
  if (!blocks) throw fail(input, 'sites.pem_garbage');
  if (blocks.some((b) => b.label !== 'CERTIFICATE')) throw fail(input, 'sites.cert_invalid');
  return blocks.map((b) => {
    try {
      return new X509Certificate(b.pem);
    } catch {
      throw fail(input, 'sites.cert_invalid');
    }
  });
}

function parseKey(text: string): KeyObject {
  const blocks = pemBlocks(text);
  if (blocks?.length !== 1) throw fail('certkey', 'sites.pem_garbage');
  if (blocks[0].label === 'ENCRYPTED PRIVATE KEY') throw fail('certkey', 'sites.key_encrypted');
  if (!/^(RSA |EC )?PRIVATE KEY$/.test(blocks[0].label)) throw fail('certkey', 'sites.key_invalid');
  try {
    return createPrivateKey(blocks[0].pem);
  } catch {
    throw fail('certkey', 'sites.key_invalid');
  }
}

/** DNS names of the certificate (SAN, else the subject CN), without parsing more than the limit allows. */
function dnsNames(cert: X509Certificate): string[] {
  const san = cert.subjectAltName;
  if (san) {
    const entries = san.split(', ');
    if (entries.length > SITES_LIMITS.certNamesMax) throw fail('cert', 'sites.cert_too_many_names', { max: SITES_LIMITS.certNamesMax });
    return entries.filter((e) => e.startsWith('DNS:')).map((e) => e.slice(4).toLowerCase());
  }
  const cn = /(?:^|\n)CN=([^\n]+)/.exec(cert.subject)?.[1];
  return cn ? [cn.toLowerCase()] : [];
}

/** A name covers the host exactly, or as a wildcard of exactly one left-most label. */
export function covers(name: string, host: string): boolean {
  if (name === host) return true;
  if (!name.startsWith('*.')) return false;
  const dot = host.indexOf('.');
  return dot > 0 && host.slice(dot + 1) === name.slice(2);
}

/**
 * Checks the material of a site's SSL on the server, in the order a user can fix it: each PEM
 * parses, the key matches the certificate, the chain links to it, it is in date and covers the host.
 */
export function checkCertificate(
  material: CertificateMaterial,
  host: string,
  at = new Date(),
): { material: CertificateMaterial; info: CertificateInfo } {
  if (!material.cert) throw fail('cert', 'validation.required');
  if (!material.key) throw fail('certkey', 'validation.required');
  const [leaf, ...bundled] = parseCertificates(material.cert, 'cert');
  const key = parseKey(material.key);
  if (key.type !== 'private' || !leaf.checkPrivateKey(key)) throw fail('certkey', 'sites.key_mismatch');
  // Intermediates pasted after the certificate (a "full chain" file) count as the chain.
  const chain = [...bundled, ...(material.chain ? parseCertificates(material.chain, 'certchain') : [])];
  let child = leaf;
  for (const parent of chain) {
    if (!child.checkIssued(parent) || !child.verify(parent.publicKey)) throw fail('certchain', 'sites.chain_mismatch');
    child = parent;
  }
  if (leaf.validToDate.getTime() < at.getTime()) {
    throw fail('cert', 'sites.cert_expired', { date: leaf.validToDate.toISOString().slice(0, 10) });
  }
  if (leaf.validFromDate.getTime() > at.getTime()) {
    throw fail('cert', 'sites.cert_not_yet_valid', { date: leaf.validFromDate.toISOString().slice(0, 10) });
  }
  const names = dnsNames(leaf);
  if (!names.some((name) => covers(name, host))) throw fail('cert', 'sites.cert_wrong_name', { host });
  const info: CertificateInfo = {
    subject: leaf.subject.replace(/\n/g, ', '),
    issuer: leaf.issuer.replace(/\n/g, ', '),
    names: names.slice(0, 50),
    validFrom: Math.floor(leaf.validFromDate.getTime() / 1000),
    validTo: Math.floor(leaf.validToDate.getTime() / 1000),
    fingerprint: leaf.fingerprint256,
  };
  const chainPem = chain.map((c) => c.toString().trim()).join('\n');
  return { material: { cert: leaf.toString().trim(), key: material.key.trim(), chain: chainPem }, info };
}

/** What the panel shows of a stored certificate, or null when it no longer parses. */
export function certificateInfo(pem: string): CertificateInfo | null {
  try {
    const leaf = new X509Certificate(pem);
    return {
      subject: leaf.subject.replace(/\n/g, ', '),
      issuer: leaf.issuer.replace(/\n/g, ', '),
      names: dnsNames(leaf).slice(0, 50),
      validFrom: Math.floor(leaf.validFromDate.getTime() / 1000),
      validTo: Math.floor(leaf.validToDate.getTime() / 1000),
      fingerprint: leaf.fingerprint256,
    };
  } catch {
    return null;
  }
}
