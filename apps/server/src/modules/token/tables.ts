import type { Generated } from 'kysely';

/** The token area's table (migration 0014_api_tokens). */
export type TokenTables = {
  api_token: {
    id: Generated<number>;
    user_id: number;
    name: string;
    /** SHA-256 of the whole token, base64url: the secret itself is never stored. */
    secret_hash: string;
    /** JSON permission map. */
    scope: string;
    /** JSON array of item ids; null: every item the user may see. */
    items: string | null;
    /** JSON array of address ranges; empty: any address. */
    cidrs: Generated<string>;
    expires_at: number | null;
    created_at: number;
    last_used_at: number | null;
    last_ip: string | null;
  };
};
