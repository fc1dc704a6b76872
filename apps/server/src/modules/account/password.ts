import type { ChangePasswordInput } from '@atalaya/contract';
import { ApiError, FieldErrors } from '../../http/errors.ts';
import type { Store } from '../../store/db.ts';
import { hashPassword, verifyPassword } from '../accounts/passwords.ts';
import { createSession, type SessionUser } from '../session/sessions.ts';
import { audit } from './audit.ts';
import { blockedFor, countEvent, minutesFor, passwordLimit } from './ratelimit.ts';

/**
 * Checks the current password (rate limited: a stolen session must not become a password oracle),
 * then ends every session of the user, this one included, and opens a fresh one for this browser:
 * whoever else held a session or a copy of its cookie is out, and the user stays signed in here.
 * Answers the new session's token.
 */
export async function changePassword(store: Store, user: SessionUser, input: ChangePasswordInput, ip: string) {
  const limit = passwordLimit(user.id);
  const wait = await blockedFor(store, limit);
  if (wait > 0) throw new ApiError(429, 'account.password_locked', { minutes: minutesFor(wait) });
  const row = await store.selectFrom('user').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
  const who = { userId: user.id, realmId: user.realmId, ip };
  if (!(await verifyPassword(row.password_hash, input.actualPassword))) {
    await countEvent(store, limit);
    await audit(store, { action: 'changepass', outcome: 'failure', ...who });
    throw FieldErrors.one('actualPassword', 'account.wrong_password');
  }
  if (input.password === input.actualPassword) throw FieldErrors.one('password', 'account.password_same');
  const hash = await hashPassword(input.password);
  await store.transaction().execute(async (trx) => {
    await trx.updateTable('user').set({ password_hash: hash }).where('id', '=', user.id).execute();
    await trx.deleteFrom('session').where('user_id', '=', user.id).execute();
  });
  await audit(store, { action: 'changepass', outcome: 'success', ...who });
  return createSession(store, user.id, ip);
}
