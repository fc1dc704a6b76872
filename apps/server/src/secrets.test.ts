import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSecrets, loadSecretKey } from './secrets.ts';

describe('secrets at rest', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'atalaya-secret-'));

  it('creates data/secret.key with mode 0600 on first use and reads the same key after', () => {
    const key = loadSecretKey(dir);
    expect(statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(loadSecretKey(dir).equals(key)).toBe(true);
  });

  it('encrypts so that the stored text does not hold the secret, and decrypts it back', () => {
    const secrets = createSecrets(loadSecretKey(dir));
    const sealed = secrets.encrypt('Mail-Passw0rd!');
    expect(sealed).not.toContain('Mail-Passw0rd!');
    expect(secrets.encrypt('Mail-Passw0rd!')).not.toBe(sealed);
    expect(secrets.decrypt(sealed)).toBe('Mail-Passw0rd!');
  });

  it('refuses a tampered secret', () => {
    const secrets = createSecrets(loadSecretKey(dir));
    const sealed = secrets.encrypt('x');
    // One bit of the ciphertext flipped. (Swapping its last base64 letters was not always a change:
    // the last letter of one byte's encoding carries four unused bits, so the test failed now and then.)
    const [version, iv, tag, body] = sealed.split('.');
    const bytes = Buffer.from(body, 'base64url');
    bytes[0] ^= 1;
    const tampered = [version, iv, tag, bytes.toString('base64url')].join('.');
    expect(tampered).not.toBe(sealed);
    expect(() => secrets.decrypt(tampered)).toThrow();
  });
});
