import { randomBytes } from 'node:crypto';
import type { Store } from '../../store/db.ts';
import { toDomainName } from '../accounts/names.ts';
import { hashPassword, verifyPassword } from '../accounts/passwords.ts';

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
}

export async function checkCredentials(
  store: Store,
  input: { domainName: string; username: string; password: string },
  check: PasswordCheck = verifyPassword,
): Promise<CredentialsResult> {
  const realmName = toDomainName(input.domainName) ?? input.domainName.trim().toLowerCase();
  const row = await store
    .selectFrom('user')
    .innerJoin('realm', 'realm.id', 'user.realm_id')
    .select(['user.id', 'user.realm_id', 'user.password_hash', 'user.disabled', 'realm.disabled as realm_disabled'])
    .where('realm.name', '=', realmName)
    .where('user.username', '=', input.username.trim().toLowerCase())
    .executeTakeFirst();
  const matches = await check(row?.password_hash ?? (await dummyHash()), input.password);
  const known = row ? { id: row.id, realmId: row.realm_id } : null;
  const usable = row && !row.disabled && !row.realm_disabled;
  return { user: matches && usable ? known : null, known, realmName };
}
