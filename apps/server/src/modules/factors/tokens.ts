import { randomBytes } from 'node:crypto';
import type { Secrets } from '../../secrets.ts';
import { now } from '../../store/db.ts';

/** How long a sign-in challenge or an enrolment in progress lives. */
export const TOKEN_SECONDS = 5 * 60;

/**
 * What a sealed token carries: what it is for, whose it is, until when, a nonce (so one token is
 * spent once), and the purpose's own data (a WebAuthn challenge, a TOTP secret being enrolled).
 */
export interface TokenBody {
  purpose: 'signin' | 'totp-enrol' | 'passkey-enrol';
  userId: number;
  expiresAt: number;
  nonce: string;
  data: Record<string, string>;
}

/**
 * A token the browser holds between two calls instead of a half-open session or a row in the
 * store: sealed with AES-GCM under the runtime's key, so it cannot be read, forged or altered, and
 * every process sharing the key accepts it.
 */
export function sealToken(secrets: Secrets, purpose: TokenBody['purpose'], userId: number, data: Record<string, string> = {}) {
  const body: TokenBody = { purpose, userId, expiresAt: now() + TOKEN_SECONDS, nonce: randomBytes(12).toString('base64url'), data };
  return { token: secrets.encrypt(JSON.stringify(body)), body };
}

/** The token's body when it is sound, of this purpose (and user, when given) and not expired; else null. */
export function openToken(secrets: Secrets, purpose: TokenBody['purpose'], token: string, userId?: number): TokenBody | null {
  let body: TokenBody;
  try {
    body = JSON.parse(secrets.decrypt(token));
  } catch {
    return null;
  }
  if (body.purpose !== purpose || typeof body.userId !== 'number' || !(body.expiresAt > now())) return null;
  if (userId !== undefined && body.userId !== userId) return null;
  return body;
}
