import { now, type Store } from '../../store/db.ts';

export interface AuditEntry {
  action: 'login' | 'logout' | 'changepass' | 'token_create' | 'token_revoke';
  outcome: 'success' | 'failure' | 'locked' | 'captcha';
  realmId?: number | null;
  userId?: number | null;
  ip?: string;
  /** What the caller typed or changed; never a password or another secret. */
  detail?: Record<string, string | number | boolean>;
}

export async function audit(store: Store, entry: AuditEntry) {
  await store
    .insertInto('audit_event')
    .values({
      at: now(),
      realm_id: entry.realmId ?? null,
      user_id: entry.userId ?? null,
      action: entry.action,
      outcome: entry.outcome,
      ip: entry.ip ?? '',
      detail: JSON.stringify(entry.detail ?? {}),
    })
    .execute();
}
