import { describe, expect, it } from 'vitest';
import { FieldErrors } from '../../src/http/errors.ts';
import { checkCertificate, covers } from '../../src/modules/sites/certificates.ts';
import { leafCertificate, manyNamesCertificate, strayKey } from './certs.ts';

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
    expect(checkCertificate({ ...good, cert: `${good.cert}\n${good.chain}`, chain: '' }, 'www.tienda.test').material.chain).toContain('BEGIN');
  });

  it('refuses a key of another certificate', () => {
    expect(refusal(() => checkCertificate({ ...good, key: strayKey() }, 'www.tienda.test'))).toMatchObject({ input: 'certkey', key: 'sites.key_mismatch' });
  });

  it('refuses a chain that does not link', () => {
    const other = leafCertificate(['x.other.test']);
    expect(refusal(() => checkCertificate({ ...good, chain: other.cert }, 'www.tienda.test'))).toMatchObject({ input: 'certchain', key: 'sites.chain_mismatch' });
  });

  it('refuses an expired certificate with its date', () => {
    const expired = leafCertificate(['old.tienda.test'], { expired: true });
    expect(refusal(() => checkCertificate(expired, 'old.tienda.test'))).toMatchObject({ key: 'sites.cert_expired', params: { date: '2021-01-01' } });
  });

  it('refuses a certificate for another name', () => {
    expect(refusal(() => checkCertificate(good, 'blog.tienda.test'))).toMatchObject({ input: 'cert', key: 'sites.cert_wrong_name' });
  });

  it('refuses text around the PEM blocks, and garbage that only looks like PEM', () => {
    expect(refusal(() => checkCertificate({ ...good, cert: `${good.cert}\n<script>alert(1)</script>` }, 'www.tienda.test'))).toMatchObject({ key: 'sites.pem_garbage' });
    expect(refusal(() => checkCertificate({ ...good, key: `hello\n${good.key}` }, 'www.tienda.test'))).toMatchObject({ input: 'certkey', key: 'sites.pem_garbage' });
    expect(refusal(() => checkCertificate({ ...good, chain: `${good.chain}trailing` }, 'www.tienda.test'))).toMatchObject({ input: 'certchain' });
    const bogus = '-----BEGIN CERTIFICATE-----\nQUJD\n-----END CERTIFICATE-----';
    expect(refusal(() => checkCertificate({ ...good, cert: bogus }, 'www.tienda.test'))).toMatchObject({ key: 'sites.cert_invalid' });
  });

  it('refuses a 5,000-name certificate before matching names', { timeout: 5000 }, () => {
    const many = manyNamesCertificate(5000);
    // No timing assertion (DESIGN.md §8): the test's own time-out is what catches a hang.
    expect(refusal(() => checkCertificate(many, 'n1.x.es'))).toMatchObject({ key: 'sites.cert_too_many_names' });
  });

  it('does not backtrack on a pathological PEM-looking input', { timeout: 5000 }, () => {
    const nasty = '-----BEGIN CERTIFICATE-----\n'.repeat(2000) + 'A'.repeat(10000);
    expect(refusal(() => checkCertificate({ ...good, cert: nasty }, 'www.tienda.test'))).toMatchObject({ key: 'sites.pem_garbage' });
  });
});
