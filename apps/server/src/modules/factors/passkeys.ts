import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyRequest } from 'fastify';
import { now, type Store } from '../../store/db.ts';

/**
 * The relying party a WebAuthn ceremony is bound to: the host name the browser reached us on
 * (the RP ID, so a passkey made on one panel name is not offered on another) and the origin it
 * shows. The guard has already refused a foreign Origin or Host, so both are the panel's own.
 */
// Loaded on first use: most processes (the CLI, a server nobody signs in to with a passkey) never
// need it, and it costs start-up time and idle memory.
const webauthn = () => import('@simplewebauthn/server');

export interface RelyingParty {
  rpID: string;
  origin: string;
}

export function relyingParty(request: FastifyRequest): RelyingParty {
  const origin = request.headers.origin ?? `${request.protocol}://${request.host}`;
  return { rpID: request.hostname, origin };
}

const parse = <T>(json: string): T | null => {
  try {
    const value = JSON.parse(json);
    return value && typeof value === 'object' ? (value as T) : null;
  } catch {
    return null;
  }
};

const passkeysOf = (store: Store, userId: number) =>
  store
    .selectFrom('second_factor')
    .select(['id', 'credential_id', 'public_key', 'sign_count', 'transports'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'passkey')
    .execute();

const transportsOf = (text: string) => (text ? text.split(',') : []) as AuthenticatorTransport[];
type AuthenticatorTransport = 'ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb';

/** Options for the browser's navigator.credentials.create(); the user's passkeys are excluded. */
export async function registrationOptions(
  store: Store,
  user: { id: number; username: string; realmName: string },
  rp: RelyingParty,
  rpName: string,
) {
  const existing = await passkeysOf(store, user.id);
  const { generateRegistrationOptions } = await webauthn();
  return generateRegistrationOptions({
    rpName,
    rpID: rp.rpID,
    userName: `${user.username}@${user.realmName}`,
    userID: new TextEncoder().encode(`atalaya-user-${user.id}`),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id!, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

/** Verifies the browser's answer to the registration options; the new credential, or null when it does not hold. */
export async function verifyRegistration(credential: string, challenge: string, rp: RelyingParty) {
  const response = parse<RegistrationResponseJSON>(credential);
  if (!response) return null;
  const { verifyRegistrationResponse } = await webauthn();
  const result = await verifyRegistrationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    requireUserVerification: false,
  }).catch(() => null);
  if (!result?.verified) return null;
  const { credential: made } = result.registrationInfo;
  return {
    credential_id: made.id,
    public_key: Buffer.from(made.publicKey).toString('base64url'),
    sign_count: made.counter,
    transports: (made.transports ?? []).join(','),
  };
}

/** Options for navigator.credentials.get() over the user's passkeys; null when the user has none. */
export async function authenticationOptions(store: Store, userId: number, rp: RelyingParty) {
  const passkeys = await passkeysOf(store, userId);
  if (passkeys.length === 0) return null;
  const { generateAuthenticationOptions } = await webauthn();
  return generateAuthenticationOptions({
    rpID: rp.rpID,
    allowCredentials: passkeys.map((p) => ({ id: p.credential_id!, transports: transportsOf(p.transports) })),
    userVerification: 'preferred',
  });
}

/**
 * Verifies an assertion made with one of the user's passkeys against the challenge the sign-in
 * step issued. The signature counter is stored when the authenticator keeps one; a counter that
 * went backwards (a cloned key) is refused by the library.
 */
export async function checkPasskey(
  store: Store,
  userId: number,
  credential: string,
  challenge: string,
  rp: RelyingParty,
): Promise<boolean> {
  const response = parse<AuthenticationResponseJSON>(credential);
  if (!response || typeof response.id !== 'string') return false;
  const row = (await passkeysOf(store, userId)).find((p) => p.credential_id === response.id);
  if (!row?.public_key) return false;
  const { verifyAuthenticationResponse } = await webauthn();
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    credential: {
      id: row.credential_id!,
      publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
      counter: Number(row.sign_count),
      transports: transportsOf(row.transports),
    },
    requireUserVerification: false,
  }).catch(() => null);
  if (!result?.verified) return false;
  await store
    .updateTable('second_factor')
    .set({ sign_count: result.authenticationInfo.newCounter, last_used_at: now() })
    .where('id', '=', row.id)
    .execute();
  return true;
}
