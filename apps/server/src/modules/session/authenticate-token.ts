import { TOKEN_PATTERN } from '@atalaya/contract';
import type { Config } from '../../config/config.ts';
import { hashSecret } from '../../secrets.ts';
import type { Store } from '../../store/db.ts';
import type { SessionUser } from '../permission/caller.ts';
import { admitBearer } from '../token/bearer.ts';
import { itemsOf, scopeOf } from '../token/tokens.ts';
import { CALLER_COLUMNS, callerOf, hasFactor } from './sessions.ts';

/** The token of an `Authorization: Bearer …` header; undefined when the request carries none. */
export function bearerOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ \t]+(\S*)[ \t]*$/i.exec(header);
  return match ? match[1] : undefined;
}

/**
 * The user a bearer token acts for, with its grant, or null: a malformed, unknown (revoked),
 * expired or out-of-range token, or one whose user or realm is disabled. Read from the store on
 * every call, never cached, so a revocation applies at once in every process.
 */
export async function authenticateToken(config: Config, store: Store, token: string, ip: string): Promise<SessionUser | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const row = await store
    .selectFrom('api_token')
    .innerJoin('user', 'user.id', 'api_token.user_id')
    .innerJoin('realm', 'realm.id', 'user.realm_id')
    .select([
      'api_token.id as token_id',
      'api_token.name as token_name',
      'api_token.scope',
      'api_token.items',
      'api_token.cidrs',
      'api_token.expires_at',
      'api_token.last_used_at',
      'api_token.last_ip',
      ...CALLER_COLUMNS,
    ])
    .select(hasFactor)
    .where('api_token.secret_hash', '=', hashSecret(token))
    .executeTakeFirst();
  if (!row || row.disabled || row.realm_disabled) return null;
  if (!(await admitBearer(store, 'api_token', { ...row, id: row.token_id }, ip))) return null;
  // No session: the calls that use one (sign-out, password, tokens) are closed to tokens.
  return callerOf(config, row, '', { id: row.token_id, name: row.token_name, scope: scopeOf(row.scope), items: itemsOf(row.items) });
}
