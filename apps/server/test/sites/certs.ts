import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Certificates made with the openssl program (argument arrays only) for the SSL tests. */
const dir = mkdtempSync(path.join(tmpdir(), 'atalaya-certs-'));
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
const read = (name: string) => readFileSync(path.join(dir, name), 'utf8');
let counter = 0;

export interface Pem {
  cert: string;
  key: string;
  chain: string;
}

function newKey(name: string) {
  openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', name);
  return read(name);
}

const CA_SUBJECT = '/O=Atalaya Tests/CN=Atalaya Test CA';
let ca: { cert: string; keyFile: string; certFile: string } | undefined;
/** A throw-away certification authority that signs the leaves (its certificate is the chain). */
function authority() {
  if (ca) return ca;
  newKey('ca.key');
  openssl(
    'req',
    '-x509',
    '-new',
    '-key',
    'ca.key',
    '-subj',
    CA_SUBJECT,
    '-days',
    '30',
    '-out',
    'ca.pem',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  ca = { cert: read('ca.pem'), keyFile: 'ca.key', certFile: 'ca.pem' };
  return ca;
}

/** A leaf for `names` signed by the test CA; `expired` dates it in 2020; `subject` replaces /CN=<first name>. */
export function leafCertificate(names: string[], options: { expired?: boolean; subject?: string } = {}): Pem {
  const id = `leaf${++counter}`;
  const key = newKey(`${id}.key`);
  const authorityPem = authority();
  const san = names.map((n) => `DNS:${n}`).join(',');
  openssl(
    'req',
    '-new',
    '-key',
    `${id}.key`,
    '-subj',
    options.subject ?? `/CN=${names[0]}`,
    '-addext',
    `subjectAltName=${san}`,
    '-out',
    `${id}.csr`,
  );
  if (options.expired) {
    writeFileSync(path.join(dir, 'index.txt'), '');
    writeFileSync(path.join(dir, 'serial'), `${(1000 + counter).toString(16).padStart(4, '0')}\n`);
    writeFileSync(
      path.join(dir, 'ca.cnf'),
      `[ca]\ndefault_ca=d\n[d]\ndatabase=${dir}/index.txt\nnew_certs_dir=${dir}\nserial=${dir}/serial\ndefault_md=sha256\npolicy=p\ncopy_extensions=copy\nunique_subject=no\n[p]\ncommonName=supplied\n`,
    );
    openssl(
      'ca',
      '-batch',
      '-config',
      'ca.cnf',
      '-cert',
      authorityPem.certFile,
      '-keyfile',
      authorityPem.keyFile,
      '-in',
      `${id}.csr`,
      '-out',
      `${id}.pem`,
      '-startdate',
      '20200101000000Z',
      '-enddate',
      '20210101000000Z',
      '-notext',
    );
  } else {
    writeFileSync(path.join(dir, `${id}.ext`), `subjectAltName=${san}\n`);
    openssl(
      'x509',
      '-req',
      '-in',
      `${id}.csr`,
      '-CA',
      authorityPem.certFile,
      '-CAkey',
      authorityPem.keyFile,
      '-CAcreateserial',
      '-days',
      '30',
      '-extfile',
      `${id}.ext`,
      '-out',
      `${id}.pem`,
    );
  }
  return { cert: read(`${id}.pem`), key, chain: authorityPem.cert };
}

/** A self-signed certificate with `count` names (none of them the site's): the 5,000-SAN case. */
export function manyNamesCertificate(count: number): Pem {
  const id = `many${++counter}`;
  const key = newKey(`${id}.key`);
  const names = Array.from({ length: count }, (_, i) => `DNS:n${i}.x.es`).join(',');
  writeFileSync(
    path.join(dir, `${id}.cnf`),
    `[req]\ndistinguished_name=dn\nx509_extensions=v3\nprompt=no\n[dn]\nCN=n0.x.es\n[v3]\nsubjectAltName=${names}\n`,
  );
  openssl('req', '-x509', '-new', '-key', `${id}.key`, '-config', `${id}.cnf`, '-days', '30', '-out', `${id}.pem`);
  return { cert: read(`${id}.pem`), key, chain: '' };
}

/** A key that belongs to no certificate here. */
export const strayKey = () => newKey(`stray${++counter}.key`);

/**
 * A CA certificate with the test authority's name and key identifier but a key of its own: it
 * passes for the leaves' issuer by name, and only the signature check tells it is not.
 */
export function impostorAuthority(): string {
  const real = authority();
  const id = `impostor${++counter}`;
  newKey(`${id}.key`);
  const skid = /Subject Key Identifier:\s*\n\s*([0-9A-F:]+)/.exec(
    openssl('x509', '-in', real.certFile, '-noout', '-ext', 'subjectKeyIdentifier').toString(),
  )?.[1];
  if (!skid) throw new Error('the test CA has no subject key identifier');
  openssl(
    'req',
    '-x509',
    '-new',
    '-key',
    `${id}.key`,
    '-subj',
    CA_SUBJECT,
    '-days',
    '30',
    '-out',
    `${id}.pem`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-addext',
    `subjectKeyIdentifier=${skid}`,
  );
  return read(`${id}.pem`);
}

/** A self-signed certificate with this subject and, when given, this subjectAltName value (no chain). */
export function selfSignedCertificate(subject: string, san?: string, algorithm: 'EC' | 'RSA' = 'EC'): Pem {
  const id = `self${++counter}`;
  if (algorithm === 'RSA') openssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', `${id}.key`);
  else newKey(`${id}.key`);
  const extra = san ? ['-addext', `subjectAltName=${san}`] : [];
  openssl('req', '-x509', '-new', '-key', `${id}.key`, '-subj', subject, '-days', '30', '-out', `${id}.pem`, ...extra);
  return { cert: read(`${id}.pem`), key: read(`${id}.key`), chain: '' };
}

/** The same private key in another PEM form: traditional (RSA/EC PRIVATE KEY), encrypted, or its public half. */
export function keyAs(key: string, form: 'traditional' | 'encrypted' | 'public'): string {
  const id = `form${++counter}`;
  writeFileSync(path.join(dir, `${id}.in`), key);
  if (form === 'encrypted') openssl('pkcs8', '-topk8', '-in', `${id}.in`, '-passout', 'pass:secret', '-out', `${id}.out`);
  else if (form === 'public') openssl('pkey', '-in', `${id}.in`, '-pubout', '-out', `${id}.out`);
  else openssl('pkey', '-in', `${id}.in`, '-traditional', '-out', `${id}.out`);
  return read(`${id}.out`);
}
