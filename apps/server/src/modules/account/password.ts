import type { ChangePasswordInput } from '@atalaya/contract';
import { ApiError, FieldErrors } from '../../http/errors.ts';
import { hashPassword, verifyPassword } from '../../passwords.ts';
import type { Store } from '../../store/db.ts';
import { createSession, type SessionUser } from '../session/sessions.ts';
import { type AuditEntry, audit } from './audit.ts';
import { giveBack, minutesFor, passwordLimit, takeSlot } from './ratelimit.ts';

/**
 * Re-authentication: checks the current password typed in `field`, rate limited per user (a stolen
 * session must not become a password oracle). A wrong one answers under the field and is audited
 * as `action`; the right one gives its attempt back.
 */
export async function verifyCurrentPassword(
  store: Store,
  user: SessionUser,
  password: string,
  check: { field: string; action: AuditEntry['action']; ip: string },
) {
  // Counted before the check, atomically: parallel guesses each see the ones before them.
  const slot = await takeSlot(store, passwordLimit(user.id));
  if (slot.wait > 0) throw new ApiError(429, 'account.password_locked', { minutes: minutesFor(slot.wait) });
  const row = await store.selectFrom('user').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
  if (!(await verifyPassword(row.password_hash, password))) {
    await audit(store, { action: check.action, outcome: 'failure', userId: user.id, realmId: user.realmId, ip: check.ip });
    throw FieldErrors.one(check.field, 'account.wrong_password');
  }
  // The right current password: not a guess, the attempt is given back.
  await giveBack(store, slot);
}

/**
 * Checks the current password, then ends every session of the user, this one included, and opens
 * a fresh one for this browser: whoever else held a session or a copy of its cookie is out, and
 * the user stays signed in here. Answers the new session's token.
 */
export async function changePassword(store: Store, user: SessionUser, input: ChangePasswordInput, ip: string) {
  await verifyCurrentPassword(store, user, input.actualPassword, { field: 'actualPassword', action: 'changepass', ip });
  if (input.password === input.actualPassword) throw FieldErrors.one('password', 'account.password_same');
  const hash = await hashPassword(input.password);
  await store.transaction().execute(async (trx) => {
    await trx.updateTable('user').set({ password_hash: hash }).where('id', '=', user.id).execute();
    await trx.deleteFrom('session').where('user_id', '=', user.id).execute();
  });
  await audit(store, { action: 'changepass', outcome: 'success', userId: user.id, realmId: user.realmId, ip });
  return createSession(store, user.id, ip);
}
