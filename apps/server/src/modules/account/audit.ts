import { now, type Store } from '../../store/db.ts';

export interface AuditEntry {
  action:
    | 'login'
    | 'login_second'
    | 'logout'
    | 'changepass'
    | 'factor_add'
    | 'factor_remove'
    | 'factor_reset'
    | 'recovery_codes'
    | 'realm_require_2fa'
    | 'token_create'
    | 'token_revoke';
  /** `second_factor`: the password was right and the second step was asked for. */
  outcome: 'success' | 'failure' | 'locked' | 'captcha' | 'second_factor' | 'expired';
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
