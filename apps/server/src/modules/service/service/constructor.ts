import type { Secrets } from '../../../secrets.ts';

/** How long a web constructor sign-in link stays valid. */
export const CONSTRUCTOR_TOKEN_SECONDS = 300;

interface ConstructorClaims {
  service: number;
  reference: string;
  subdomain: string;
  exp: number;
}

/** AES-GCM sealed claims: the builder (sharing the key) can trust them, nobody else can forge them. */
export function constructorUrl(secrets: Secrets, base: string, claims: Omit<ConstructorClaims, 'exp'>, now = Date.now()) {
  const token = secrets.encrypt(JSON.stringify({ ...claims, exp: Math.floor(now / 1000) + CONSTRUCTOR_TOKEN_SECONDS }));
  const url = new URL(base);
  url.searchParams.set('token', token);
  return url.toString();
}

/** The claims of a live token, or null when forged, tampered with or expired. */
export function readConstructorToken(secrets: Secrets, token: string, now = Date.now()): ConstructorClaims | null {
  try {
    const claims = JSON.parse(secrets.decrypt(token)) as ConstructorClaims;
    return claims.exp * 1000 > now ? claims : null;
  } catch {
    return null;
  }
}
