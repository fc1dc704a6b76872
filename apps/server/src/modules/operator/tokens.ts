import { OPERATOR_SCOPES, OPERATOR_TOKEN_PATTERN, OPERATOR_TOKEN_PREFIX, type OperatorScope } from '@atalaya/contract';
import { hashSecret } from '../../secrets.ts';
import type { Store } from '../../store/db.ts';
import type { Operator } from '../permission/caller.ts';
import { admitBearer, bearerView, mintToken } from '../token/bearer.ts';

export interface OperatorTokenSpec {
  name: string;
  scopes: OperatorScope[];
  cidrs: string[];
  /** Unix seconds from which it stops working; null: never. */
  expiresAt: number | null;
}

const scopesOf = (text: string) =>
  (JSON.parse(text) as string[]).filter((s): s is OperatorScope => (OPERATOR_SCOPES as readonly string[]).includes(s));

/** Stores the token's hash and answers the token, which exists nowhere else from now on. */
export async function createOperatorToken(store: Store, spec: OperatorTokenSpec) {
  const { token, columns } = mintToken(OPERATOR_TOKEN_PREFIX, spec);
  const row = await store
    .insertInto('operator_token')
    .values({ ...columns, name: spec.name, scopes: JSON.stringify([...new Set(spec.scopes)]) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { token, id: row.id };
}

/**
 * The operator a bearer token stands for, or null: malformed, unknown (revoked), expired or from an
 * address outside its ranges. Read on every call, never cached, so a revocation applies at once.
 */
export async function authenticateOperator(store: Store, token: string, ip: string): Promise<Operator | null> {
  if (!OPERATOR_TOKEN_PATTERN.test(token)) return null;
  const row = await store.selectFrom('operator_token').selectAll().where('secret_hash', '=', hashSecret(token)).executeTakeFirst();
  if (!row || !(await admitBearer(store, 'operator_token', row, ip))) return null;
  return { id: row.id, name: row.name, scopes: scopesOf(row.scopes) };
}

export async function listOperatorTokens(store: Store) {
  const rows = await store.selectFrom('operator_token').selectAll().orderBy('id').execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    scopes: scopesOf(r.scopes),
    ...bearerView(r),
  }));
}

/** Deletes an operator token (and its idempotency keys); false when there is none with that id. */
export async function revokeOperatorToken(store: Store, id: number) {
  const result = await store.deleteFrom('operator_token').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
