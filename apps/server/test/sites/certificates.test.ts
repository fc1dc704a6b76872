import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FieldErrors } from '../../src/http/errors.ts';
import { certificateInfo, checkCertificate, covers } from '../../src/modules/sites/certificates.ts';
import { impostorAuthority, keyAs, leafCertificate, manyNamesCertificate, selfSignedCertificate, strayKey } from './certs.ts';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof FieldErrors) return error.fields[0];
    throw error;
  }
  throw new Error('not refused');
};

describe('certificate checks', () => {
  const good = leafCertificate(['www.tienda.test', '*.shop.tienda.test']);

  it('accepts a certificate, its key and a chain that links to it', () => {
    const { info, material } = checkCertificate(good, 'www.tienda.test');
    expect(info.names).toEqual(['www.tienda.test', '*.shop.tienda.test']);
    expect(info.issuer).toContain('Atalaya Test CA');
    expect(material.chain).toContain('BEGIN CERTIFICATE');
  });

  it('accepts a wildcard for one label only', () => {
    expect(covers('*.shop.tienda.test', 'a.shop.tienda.test')).toBe(true);
    expect(covers('*.shop.tienda.test', 'a.b.shop.tienda.test')).toBe(false);
    expect(covers('*.shop.tienda.test', 'shop.tienda.test')).toBe(false);
    expect(checkCertificate(good, 'blog.shop.tienda.test').info.names).toHaveLength(2);
  });

  it('accepts a full-chain file pasted in the certificate field', () => {
    expect(checkCertificate({ ...good, cert: `${good.cert}\n${good.chain}`, chain: '' }, 'www.tienda.test').material.chain).toContain(
      'BEGIN',
    );
  });

  it('refuses a key of another certificate', () => {
    expect(refusal(() => checkCertificate({ ...good, key: strayKey() }, 'www.tienda.test'))).toMatchObject({
      input: 'certkey',
      key: 'sites.key_mismatch',
    });
  });

  it('refuses a chain that does not link', () => {
    const other = leafCertificate(['x.other.test']);
    expect(refusal(() => checkCertificate({ ...good, chain: other.cert }, 'www.tienda.test'))).toMatchObject({
      input: 'certchain',
      key: 'sites.chain_mismatch',
    });
  });

  it('refuses a chain certificate that bears the issuer’s name but not its signature', () => {
    const impostor = impostorAuthority();
    // Same subject and key identifier as the real issuer: only the signature tells them apart.
    expect(new X509Certificate(good.cert).checkIssued(new X509Certificate(impostor))).toBe(true);
    expect(refusal(() => checkCertificate({ ...good, chain: impostor }, 'www.tienda.test'))).toMatchObject({
      input: 'certchain',
      key: 'sites.chain_mismatch',
    });
  });

  it('refuses a certificate not valid yet, with the date it starts', () => {
    const from = new X509Certificate(good.cert).validFromDate;
    const before = new Date(from.getTime() - 86_400_000);
    expect(refusal(() => checkCertificate(good, 'www.tienda.test', before))).toMatchObject({
      input: 'cert',
      key: 'sites.cert_not_yet_valid',
      params: { date: from.toISOString().slice(0, 10) },
    });
    // From its first second on, it is accepted.
    expect(checkCertificate(good, 'www.tienda.test', from).info.validFrom).toBe(from.getTime() / 1000);
  });

  it('accepts a certificate up to its last second, and refuses it right after', () => {
    const to = new X509Certificate(good.cert).validToDate;
    expect(checkCertificate(good, 'www.tienda.test', to).info.validTo).toBe(to.getTime() / 1000);
    expect(refusal(() => checkCertificate(good, 'www.tienda.test', new Date(to.getTime() + 1000)))).toMatchObject({
      key: 'sites.cert_expired',
    });
  });

  it('refuses an expired certificate with its date', () => {
    const expired = leafCertificate(['old.tienda.test'], { expired: true });
    expect(refusal(() => checkCertificate(expired, 'old.tienda.test'))).toMatchObject({
      key: 'sites.cert_expired',
      params: { date: '2021-01-01' },
    });
  });

  it('refuses a certificate for another name', () => {
    expect(refusal(() => checkCertificate(good, 'blog.tienda.test'))).toMatchObject({ input: 'cert', key: 'sites.cert_wrong_name' });
  });

  it('refuses text around the PEM blocks, and garbage that only looks like PEM', () => {
    expect(refusal(() => checkCertificate({ ...good, cert: `${good.cert}\n<script>alert(1)</script>` }, 'www.tienda.test'))).toMatchObject({
      key: 'sites.pem_garbage',
    });
    expect(refusal(() => checkCertificate({ ...good, key: `hello\n${good.key}` }, 'www.tienda.test'))).toMatchObject({
      input: 'certkey',
      key: 'sites.pem_garbage',
    });
    expect(refusal(() => checkCertificate({ ...good, chain: `${good.chain}trailing` }, 'www.tienda.test'))).toMatchObject({
      input: 'certchain',
    });
    const bogus = '-----BEGIN CERTIFICATE-----\nQUJD\n-----END CERTIFICATE-----';
    expect(refusal(() => checkCertificate({ ...good, cert: bogus }, 'www.tienda.test'))).toMatchObject({ key: 'sites.cert_invalid' });
  });

  it('covers a host by a wildcard only from a label of its own', () => {
    expect(covers('www.tienda.test', 'www.tienda.test')).toBe(true);
    expect(covers('ab.tienda.test', 'x.tienda.test')).toBe(false);
    expect(covers('abtienda.test', 'x.tienda.test')).toBe(false);
    expect(covers('*.tienda.test', '.tienda.test')).toBe(false);
    expect(covers('*.tienda.test', 'tienda.test')).toBe(false);
    expect(covers('*.tienda.test', 'x.otra.test')).toBe(false);
  });

  it('reads the names of a certificate without SAN from its CN, and only DNS names from a SAN', () => {
    const cnOnly = selfSignedCertificate('/O=Tienda/CN=Old.Tienda.Test');
    expect(checkCertificate(cnOnly, 'old.tienda.test').info.names).toEqual(['old.tienda.test']);
    const cnFirst = selfSignedCertificate('/CN=first.tienda.test/O=Tienda');
    expect(checkCertificate(cnFirst, 'first.tienda.test').info.names).toEqual(['first.tienda.test']);
    const noName = selfSignedCertificate('/O=Tienda Sin Nombre');
    expect(refusal(() => checkCertificate(noName, 'old.tienda.test'))).toMatchObject({ key: 'sites.cert_wrong_name' });
    expect(certificateInfo(noName.cert)?.names).toEqual([]);
    const mixed = selfSignedCertificate('/CN=x', 'IP:192.0.2.1,DNS:Mixed.Tienda.Test,email:a@tienda.test');
    expect(checkCertificate(mixed, 'mixed.tienda.test').info.names).toEqual(['mixed.tienda.test']);
    expect(refusal(() => checkCertificate(mixed, '192.0.2.1'))).toMatchObject({
      key: 'sites.cert_wrong_name',
      params: { host: '192.0.2.1' },
    });
  });

  it('accepts up to 1,000 names, shows the first 50, and refuses 1,001 saying the limit', () => {
    const thousand = manyNamesCertificate(1000);
    const { info } = checkCertificate(thousand, 'n999.x.es');
    expect(info.names).toHaveLength(50);
    expect(info.names[49]).toBe('n49.x.es');
    expect(certificateInfo(thousand.cert)?.names).toHaveLength(50);
    expect(refusal(() => checkCertificate(manyNamesCertificate(1001), 'n1.x.es'))).toMatchObject({
      input: 'cert',
      key: 'sites.cert_too_many_names',
      params: { max: 1000 },
    });
  });

  it('takes a key as PKCS#8 or in its traditional RSA or EC form, and names what is wrong with any other', () => {
    const rsa = selfSignedCertificate('/CN=rsa.tienda.test', 'DNS:rsa.tienda.test', 'RSA');
    expect(checkCertificate({ ...rsa, key: keyAs(rsa.key, 'traditional') }, 'rsa.tienda.test').info.names).toEqual(['rsa.tienda.test']);
    expect(checkCertificate(rsa, 'rsa.tienda.test').info.names).toEqual(['rsa.tienda.test']);
    expect(checkCertificate({ ...good, key: keyAs(good.key, 'traditional') }, 'www.tienda.test').info.names).toHaveLength(2);
    const field = (key: string) => refusal(() => checkCertificate({ ...good, key }, 'www.tienda.test'));
    expect(field(keyAs(good.key, 'encrypted'))).toEqual({ input: 'certkey', key: 'sites.key_encrypted' });
    expect(field(keyAs(good.key, 'public'))).toEqual({ input: 'certkey', key: 'sites.key_invalid' });
    expect(field(good.key.replace(/PRIVATE KEY-----/g, 'PRIVATE KEYS-----'))).toEqual({ input: 'certkey', key: 'sites.key_invalid' });
    expect(field(good.key.replace(/PRIVATE KEY-----/g, 'X PRIVATE KEY-----'))).toEqual({ input: 'certkey', key: 'sites.key_invalid' });
    expect(field('-----BEGIN PRIVATE KEY-----\nQUJD\n-----END PRIVATE KEY-----')).toEqual({ input: 'certkey', key: 'sites.key_invalid' });
    expect(field(`${good.key}\n${good.key}`)).toEqual({ input: 'certkey', key: 'sites.pem_garbage' });
    expect(field(' \n ')).toEqual({ input: 'certkey', key: 'sites.pem_garbage' });
  });

  it('refuses anything but certificates in the certificate and chain fields', () => {
    expect(refusal(() => checkCertificate({ ...good, cert: `${good.cert}\n${good.key}` }, 'www.tienda.test'))).toEqual({
      input: 'cert',
      key: 'sites.cert_invalid',
    });
    expect(refusal(() => checkCertificate({ ...good, chain: `${good.chain}\n${good.key}` }, 'www.tienda.test'))).toEqual({
      input: 'certchain',
      key: 'sites.cert_invalid',
    });
    expect(refusal(() => checkCertificate({ ...good, cert: '\n\n' }, 'www.tienda.test'))).toEqual({
      input: 'cert',
      key: 'sites.pem_garbage',
    });
  });

  it('keeps the material tidy: each PEM trimmed, the chain in order, one certificate a block', () => {
    const { material, info } = checkCertificate(
      { cert: `\n${good.cert}\n${good.chain}\n`, key: `\n  ${good.key}\n\n`, chain: `${good.chain}\n\n` },
      'www.tienda.test',
    );
    expect(material.cert).toBe(good.cert.trim());
    expect(material.key).toBe(good.key.trim());
    expect(material.chain).toBe(`${good.chain.trim()}\n${good.chain.trim()}`);
    expect(info.subject).toBe('CN=www.tienda.test');
    expect(info.issuer).toBe('O=Atalaya Tests, CN=Atalaya Test CA');
    const leaf = new X509Certificate(good.cert);
    expect(info).toMatchObject({
      validFrom: leaf.validFromDate.getTime() / 1000,
      validTo: leaf.validToDate.getTime() / 1000,
      fingerprint: leaf.fingerprint256,
    });
    const named = leafCertificate(['shop.tienda.test'], { subject: '/O=Tienda/CN=shop.tienda.test' });
    expect(checkCertificate(named, 'shop.tienda.test').info.subject).toBe('O=Tienda, CN=shop.tienda.test');
  });

  it('shows a stored certificate as the panel lists it, and nothing for one that no longer parses', () => {
    const named = leafCertificate(['list.tienda.test', 'www.list.tienda.test'], { subject: '/O=Tienda/CN=list.tienda.test' });
    const leaf = new X509Certificate(named.cert);
    expect(certificateInfo(named.cert)).toEqual({
      subject: 'O=Tienda, CN=list.tienda.test',
      issuer: 'O=Atalaya Tests, CN=Atalaya Test CA',
      names: ['list.tienda.test', 'www.list.tienda.test'],
      validFrom: leaf.validFromDate.getTime() / 1000,
      validTo: leaf.validToDate.getTime() / 1000,
      fingerprint: leaf.fingerprint256,
    });
    expect(certificateInfo('-----BEGIN CERTIFICATE-----\nQUJD\n-----END CERTIFICATE-----')).toBeNull();
    expect(certificateInfo('')).toBeNull();
  });

  it('refuses a 5,000-name certificate before matching names', { timeout: 5000 }, () => {
    const many = manyNamesCertificate(5000);
    // No timing assertion (docs/design.md#principles): the test's own time-out is what catches a hang.
    expect(refusal(() => checkCertificate(many, 'n1.x.es'))).toMatchObject({ key: 'sites.cert_too_many_names' });
  });

  it('does not backtrack on a pathological PEM-looking input', { timeout: 5000 }, () => {
    const nasty = '-----BEGIN CERTIFICATE-----\n'.repeat(2000) + 'A'.repeat(10000);
    expect(refusal(() => checkCertificate({ ...good, cert: nasty }, 'www.tienda.test'))).toMatchObject({ key: 'sites.pem_garbage' });
  });
});
