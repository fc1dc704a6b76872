import type { Generated } from 'kysely';

/** The account area's additions to the store's Database type (migrations 0002_account, 0013_factors, 0023_recovery_code_issued). */
export type AccountTables = {
  /** Columns added to the core user table: the sign-in before the current one. */
  user: { prev_login_at: number | null; prev_ip: string | null };
  /** Added to the core realm table: its users must sign in with a second factor (0/1). */
  realm: { require_second_factor: Generated<number> };
  second_factor: SecondFactorTable;
  recovery_code: RecoveryCodeTable;
};

export interface SecondFactorTable {
  id: Generated<number>;
  user_id: number;
  kind: 'totp' | 'passkey';
  name: string;
  /** TOTP: the base32 secret, sealed with the runtime's secrets. */
  secret: string | null;
  /** TOTP: the last 30-second step a code was accepted for; codes of it and before are refused. */
  last_step: Generated<number>;
  credential_id: string | null;
  public_key: string | null;
  sign_count: Generated<number>;
  /** Passkey transports, comma-separated, as the browser reported them. */
  transports: Generated<string>;
  created_at: number;
  last_used_at: number | null;
}

export interface RecoveryCodeTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the code (the codes carry 60 random bits, no slow hash needed). */
  code_hash: string;
  used_at: number | null;
  /** When it was issued (0: before 0023_recovery_code_issued); a re-authentication counts only codes older than the session. */
  created_at: Generated<number>;
}
