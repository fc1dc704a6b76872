import { randomBytes } from 'node:crypto';
import { canonicalRealm, canonicalUsername } from '../../kernel/names.ts';
import { hashPassword, verifyPassword } from '../../passwords.ts';
import type { Store } from '../../store/db.ts';

export type PasswordCheck = (hash: string, password: string) => Promise<boolean>;

// A hash of nothing anyone knows: an unknown realm or user still costs one argon2 verify, so the
// answer time does not tell which part was wrong.
let dummy: Promise<string> | undefined;
export const dummyHash = () => {
  dummy ??= hashPassword(randomBytes(18).toString('base64url'));
  return dummy;
};

export interface CredentialsResult {
  /** The user, only when realm, user and password all match and neither is disabled. */
  user: { id: number; realmId: number } | null;
  /** Who the attempt was about, when the realm and user exist (for the audit log). */
  known: { id: number; realmId: number } | null;
  realmName: string;
  /** The password matched but the realm is suspended by the operator's billing: the user is told so. */
  suspended: boolean;
}

/**
 * The account a sign-in is about, in its one spelling: the credential check looks it up and the
 * rate limits count it, so no spelling of the same account escapes the other's count.
 */
export const signInIdentity = (input: { domainName: string; username: string }) => ({
  realm: canonicalRealm(input.domainName),
  username: canonicalUsername(input.username),
});

export async function checkCredentials(
  store: Store,
  input: { domainName: string; username: string; password: string },
  check: PasswordCheck = verifyPassword,
): Promise<CredentialsResult> {
  const { realm: realmName, username } = signInIdentity(input);
  const row = await store
    .selectFrom('user')
    .innerJoin('realm', 'realm.id', 'user.realm_id')
    .select([
      'user.id',
      'user.realm_id',
      'user.password_hash',
      'user.disabled',
      'realm.disabled as realm_disabled',
      'realm.suspended as realm_suspended',
    ])
    .where('realm.name', '=', realmName)
    .where('user.username', '=', username)
    .executeTakeFirst();
  const matches = await check(row?.password_hash ?? (await dummyHash()), input.password);
  const known = row ? { id: row.id, realmId: row.realm_id } : null;
  const usable = row && !row.disabled && !row.realm_disabled;
  const suspended = Boolean(matches && row && !row.disabled && row.realm_suspended);
  return { user: matches && usable ? known : null, known, realmName, suspended };
}
