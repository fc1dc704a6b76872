import { createHash, randomBytes } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { Secrets } from '../secrets.ts';
import { now, type Store } from '../store/db.ts';

// The Web Crypto API the x509 library signs with (node's, as the global one).
x509.cryptoProvider.set(globalThis.crypto);
const { subtle } = globalThis.crypto;

/** Every key the panel and its agents make: ECDSA P-256, small and quick to make on first use. */
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const YEAR_MS = 365 * 86_400_000;

/** The panel's certificate authority (decision 040): it issues the agents' client certificates and the node port's own. */
export interface PanelCa {
  cert: x509.X509Certificate;
  certPem: string;
  key: CryptoKey;
  /** SHA-256 of the CA certificate (base64url): the enrolment token carries it so an agent trusts only this panel. */
  fingerprint: string;
}

export const fingerprintOf = (pem: string) =>
  createHash('sha256')
    .update(Buffer.from(new x509.X509Certificate(pem).rawData))
    .digest('base64url');

const serial = () => {
  const bytes = randomBytes(16);
  bytes[0] &= 0x7f;
  return bytes.toString('hex');
};

async function exportKey(key: CryptoKey) {
  const der = Buffer.from(await subtle.exportKey('pkcs8', key));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END PRIVATE KEY-----\n`;
}

async function importKey(pem: string) {
  const der = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  return subtle.importKey('pkcs8', der, ALGORITHM, true, ['sign']);
}

/**
 * The panel's CA, made on first use and kept in the store (its key sealed with the panel's key), so
 * every panel process of one store issues and checks against the same one. Two processes making it
 * at once: the first insert wins and both read it back.
 */
export async function panelCa(store: Store, secrets: Secrets): Promise<PanelCa> {
  let row = await store.selectFrom('node_ca').selectAll().where('id', '=', 1).executeTakeFirst();
  if (!row) {
    const keys = await subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: serial(),
      name: 'CN=Atalaya panel CA',
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + 20 * YEAR_MS),
      keys,
      signingAlgorithm: ALGORITHM,
      extensions: [new x509.BasicConstraintsExtension(true, 0, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true)],
    });
    await store
      .insertInto('node_ca')
      .values({ id: 1, cert_pem: cert.toString('pem'), key_sealed: secrets.encrypt(await exportKey(keys.privateKey)), created_at: now() })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    row = await store.selectFrom('node_ca').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
  }
  return {
    cert: new x509.X509Certificate(row.cert_pem),
    certPem: row.cert_pem,
    key: await importKey(secrets.decrypt(row.key_sealed)),
    fingerprint: fingerprintOf(row.cert_pem),
  };
}

/** Issues a node's client certificate for the CSR its agent made; the name is the node's, whatever the CSR asked. */
export async function issueClientCertificate(ca: PanelCa, csrPem: string, node: string) {
  const csr = new x509.Pkcs10CertificateRequest(csrPem);
  if (!(await csr.verify())) throw new Error('the certificate request is not signed by its own key');
  const serialNumber = serial();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber,
    subject: `CN=${node}`,
    issuer: ca.cert.subject,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 5 * YEAR_MS),
    publicKey: csr.publicKey,
    signingKey: ca.key,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth], true),
    ],
  });
  return { pem: cert.toString('pem'), serial: serialNumber };
}

/** The node port's own certificate, made at each start for the names and addresses agents reach it by. */
export async function serverCertificate(ca: PanelCa, hosts: string[]) {
  const keys = await subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const names = hosts.map((host) => ({ type: /^[\d.]+$|:/.test(host) ? ('ip' as const) : ('dns' as const), value: host }));
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${hosts[0] ?? 'atalaya'}`,
    issuer: ca.cert.subject,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + YEAR_MS),
    publicKey: keys.publicKey,
    signingKey: ca.key,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.SubjectAlternativeNameExtension(names),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth], true),
    ],
  });
  return { cert: cert.toString('pem'), key: await exportKey(keys.privateKey) };
}

/** An agent's key and certificate request: the key never leaves the node. */
export async function keyAndRequest(name: string) {
  const keys = await subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: `CN=${name}`, keys, signingAlgorithm: ALGORITHM });
  return { keyPem: await exportKey(keys.privateKey), csrPem: csr.toString('pem') };
}
