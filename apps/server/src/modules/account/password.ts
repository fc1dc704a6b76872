import type { ChangePasswordInput } from '@atalaya/contract';
import type { Kysely } from 'kysely';
import { ApiError, FieldErrors } from '../../http/errors.ts';
import { hashPassword, verifyPassword } from '../../passwords.ts';
import type { Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { type ActivityEntry, recordActivity } from '../activity/record.ts';
import { createSession, type SessionUser } from '../session/sessions.ts';
import { giveBack, minutesFor, passwordLimit, takeSlot } from './ratelimit.ts';

/**
 * Checks the current password (rate limited: a stolen session must not become a password oracle),
 * then ends every session of the user, this one included, and opens a fresh one for this browser:
 * whoever else held a session or a copy of its cookie is out, and the user stays signed in here.
 * Answers the new session's token.
 */
export async function changePassword(
  store: Store,
  user: SessionUser,
  input: ChangePasswordInput,
  who: Pick<ActivityEntry, 'realmId' | 'userId' | 'actor' | 'token' | 'ip' | 'agent'>,
) {
  // Counted before the check, atomically: parallel guesses each see the ones before them.
  const slot = await takeSlot(store, passwordLimit(user.id));
  if (slot.wait > 0) throw new ApiError(429, 'account.password_locked', { minutes: minutesFor(slot.wait) });
  const row = await store.selectFrom('user').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
  const audit = (outcome: 'success' | 'failure', db: Kysely<Database> = store) =>
    // That the password changed is recorded, never the password: the log shows it redacted.
    recordActivity(db, { ...who, action: 'changepass', outcome, area: 'account', changes: [{ field: 'password', before: '', after: '' }] });
  if (!(await verifyPassword(row.password_hash, input.actualPassword))) {
    await audit('failure');
    throw FieldErrors.one('actualPassword', 'account.wrong_password');
  }
  // The right current password: not a guess, the attempt is given back.
  await giveBack(store, slot);
  if (input.password === input.actualPassword) throw FieldErrors.one('password', 'account.password_same');
  const hash = await hashPassword(input.password);
  await store.transaction().execute(async (trx) => {
    await trx.updateTable('user').set({ password_hash: hash }).where('id', '=', user.id).execute();
    await trx.deleteFrom('session').where('user_id', '=', user.id).execute();
    await audit('success', trx);
  });
  return createSession(store, user.id, who.ip);
}
