import type { ACTOR_KINDS, ActivityChange } from '@atalaya/contract';
import type { Kysely } from 'kysely';
import { now } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { isSecretField, redact } from './redact.ts';

export type ActorKind = (typeof ACTOR_KINDS)[number];

/** One line of the activity log (decision 023). */
export interface ActivityEntry {
  /** The call (`dns.create`), the account event (`login`, `logout`, `changepass`) or the command (`cli.grant`). */
  action: string;
  outcome?: 'success' | 'failure' | 'locked' | 'captcha' | (string & {});
  realmId?: number | null;
  userId?: number | null;
  /** `user` unless a token or the CLI acted. */
  actor?: ActorKind;
  token?: { id: number; name: string } | null;
  ip?: string;
  /** The browser family (agent.ts). */
  agent?: string;
  item?: { id: number; reference: string } | null;
  /** A permission area, or `account` for a realm-level event. */
  area?: string;
  /** Before → after of the fields; redacted here, whatever the caller passed. */
  changes?: readonly ActivityChange[];
  /** What the caller typed (a sign-in's domain and username); never a password or another secret. */
  detail?: Record<string, string | number | boolean>;
}

/**
 * Writes one line of the activity log. `db` is the store or the caller's transaction, so a change
 * and its record commit together when the caller has one. Secrets are redacted on the way in:
 * no caller can put a password in the log by mistake.
 */
export async function recordActivity(db: Kysely<Database>, entry: ActivityEntry) {
  const detail = Object.fromEntries(Object.entries(entry.detail ?? {}).filter(([key]) => !isSecretField(key)));
  await db
    .insertInto('audit_event')
    .values({
      at: now(),
      realm_id: entry.realmId ?? null,
      user_id: entry.userId ?? null,
      action: entry.action,
      outcome: entry.outcome ?? 'success',
      ip: entry.ip ?? '',
      detail: JSON.stringify(detail),
      actor: entry.actor ?? (entry.token ? 'token' : 'user'),
      token_id: entry.token?.id ?? null,
      token_name: entry.token?.name ?? '',
      agent: entry.agent ?? '',
      item_id: entry.item?.id ?? null,
      reference: entry.item?.reference ?? '',
      area: entry.area ?? (entry.item ? '' : 'account'),
      changes: JSON.stringify(redact(entry.changes ?? [])),
    })
    .execute();
}
