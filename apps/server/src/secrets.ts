import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config/config.ts';

/**
 * Secrets the panel must show again (mail, FTP and database passwords, auth codes) are kept
 * encrypted with AES-256-GCM under a key in data/secret.key (mode 0600), never in clear.
 */
export interface Secrets {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export function loadSecretKey(dataDir: string): Buffer {
  const file = path.join(dataDir, 'secret.key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} must hold a base64 32-byte key`);
  return key;
}

function decodeKey(text: string, from: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new ConfigError(`${from} must hold a base64 32-byte key (openssl rand -base64 32)`);
  return key;
}

/**
 * The sealing key every process of one panel must share: `secretKey` (ATALAYA_SECRET_KEY) if set,
 * else the file at `secretKeyFile` (ATALAYA_SECRET_KEY_FILE), which must exist, else
 * `<dataDir>/secret.key`, created on first start (one machine).
 */
export function sealingKey(config: { dataDir: string; secretKey?: string; secretKeyFile?: string }): Buffer {
  if (config.secretKey) return decodeKey(config.secretKey, 'ATALAYA_SECRET_KEY');
  if (config.secretKeyFile) {
    if (!existsSync(config.secretKeyFile))
      throw new ConfigError(`the key file ${config.secretKeyFile} (ATALAYA_SECRET_KEY_FILE) does not exist`);
    return decodeKey(readFileSync(config.secretKeyFile, 'utf8'), config.secretKeyFile);
  }
  return loadSecretKey(config.dataDir);
}

export function createSecrets(key: Buffer): Secrets {
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    decrypt(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** The stored form of a random bearer secret (an API or operator token, a session's cookie token). */
// A token's secret has 256 random bits, so a fast hash is enough: no guessing can find a preimage. It is
// also how a session's cookie token is kept. The one-shot `hash` does in one call what `createHash`
// does in three, and a session's token is hashed on every signed-in request.
export const hashSecret = (token: string) => hash('sha256', token, 'base64url');
