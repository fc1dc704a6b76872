import { OPERATOR_SCOPES, type OperatorScope, operatorWebhookCreateSchema, WEBHOOK_EVENTS } from '@atalaya/contract';
import type { Secrets } from '../../secrets.ts';
import type { Store } from '../../store/db.ts';
import { AccountError } from '../provisioning/accounts.ts';
import { type TokenBasicOptions, tokenBasics } from '../provisioning/token-options.ts';
import { createOperatorToken, listOperatorTokens, revokeOperatorToken } from './tokens.ts';
import { createWebhook, deliveryLog, listWebhooks } from './webhooks.ts';

export interface OperatorTokenOptions extends TokenBasicOptions {
  /** Scopes, comma-separated: provision, domains, webhooks. */
  scope?: string;
}

/** The operator's `operator-token-create`: checks the options in English and answers the token. */
export async function createOperatorTokenFrom(store: Store, options: OperatorTokenOptions) {
  const { name, cidrs, expiresAt } = tokenBasics(options);
  const scopes = (options.scope ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (scopes.length === 0) throw new AccountError(`--scope is required: one or more of ${OPERATOR_SCOPES.join(', ')}`);
  const unknown = scopes.find((s) => !(OPERATOR_SCOPES as readonly string[]).includes(s));
  if (unknown) throw new AccountError(`"${unknown}" is not an operator scope: use ${OPERATOR_SCOPES.join(', ')}`);
  return createOperatorToken(store, { name, scopes: scopes as OperatorScope[], cidrs, expiresAt });
}

const when = (seconds: number | null) =>
  seconds === null ? 'never' : new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');

/** One line per operator token: id, name, scopes, ranges, expiry, last use (never the secret). */
export async function operatorTokenLines(store: Store) {
  return (await listOperatorTokens(store)).map((t) =>
    [
      t.id,
      t.name,
      t.scopes.join(','),
      t.cidrs.join(',') || 'any address',
      `expires ${t.expiresAt === null ? 'never' : when(t.expiresAt)}`,
      t.lastUsedAt === null ? 'never used' : `last used ${when(t.lastUsedAt)} from ${t.lastIp}`,
    ].join('\t'),
  );
}

export async function revokeOperatorTokenOf(store: Store, id: string) {
  if (!/^\d{1,9}$/.test(id) || !(await revokeOperatorToken(store, Number(id)))) throw new AccountError(`No operator token ${id}`);
}

/** The CLI's `webhook-create`: the URL and the events checked as the operator API checks them. */
export async function createWebhookFrom(store: Store, secrets: Secrets, url: string, events: string | undefined) {
  const parsed = operatorWebhookCreateSchema.safeParse({
    url,
    events: (events ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean),
  });
  if (!parsed.success) {
    throw new AccountError(`Give an http(s) URL and --events, one or more of ${WEBHOOK_EVENTS.join(', ')}`);
  }
  return createWebhook(store, secrets, parsed.data);
}

/** The endpoints, then each recent delivery and its attempts, one line each. */
export async function webhookLines(store: Store) {
  const endpoints = await listWebhooks(store);
  const lines = endpoints.length ? endpoints.map((w) => `endpoint ${w.id}\t${w.url}\t${w.events.join(',')}`) : ['No webhook endpoints'];
  for (const d of await deliveryLog(store)) {
    lines.push(`delivery ${d.id}\t${d.event}\t${d.status}\t${d.url}\t${d.attempts.length} attempt(s)`);
    for (const a of d.attempts) {
      lines.push(`  attempt\t${when(a.at)}\t${a.httpStatus ?? 'unreachable'}\t${a.answer.replace(/\s+/g, ' ').slice(0, 120)}`);
    }
  }
  return lines;
}
