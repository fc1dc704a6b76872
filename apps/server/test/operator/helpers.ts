import type { OperatorScope } from '@atalaya/contract';
import { createOperatorToken } from '../../src/modules/operator/tokens.ts';
import type { TestContext } from '../stores.ts';

/** An operator token straight in the store (the CLI command has a test of its own). */
export async function operatorToken(
  ctx: Pick<TestContext, 'store'>,
  scopes: OperatorScope[] = ['provision', 'domains', 'webhooks'],
  spec: { cidrs?: string[]; expiresAt?: number | null } = {},
) {
  return (await createOperatorToken(ctx.store, { name: 'billing', scopes, cidrs: spec.cidrs ?? [], expiresAt: spec.expiresAt ?? null }))
    .token;
}

/** One operator call with a JSON body (or none), as a billing system sends it. */
export async function call(
  app: TestContext['app'],
  method: 'GET' | 'POST',
  path: string,
  token: string | undefined,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await app.inject({
    method,
    url: `/p247/operator/${path}`,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = res.json();
  return { status: res.statusCode, body: json, headers: res.headers, errors: (json.system?.errors ?? []) as string[] };
}

export const uniqueRealm = () => `r${Math.random().toString(36).slice(2, 10)}.test`;
