import { ApiError, FieldErrors } from '../../http/errors.ts';
import { verifyPassword } from '../../passwords.ts';
import type { Secrets } from '../../secrets.ts';
import type { Store } from '../../store/db.ts';
import { recordActivity } from '../activity/record.ts';
import { checkTotp } from '../factors/factors.ts';
import { spendRecoveryCode } from '../factors/recovery.ts';
import type { SessionUser } from '../session/sessions.ts';
import { giveBack, minutesFor, passwordLimit, takeSlot } from './ratelimit.ts';

export interface ReauthInput {
  password?: string;
  /** A code of the user's authenticator app, or one of its recovery codes. */
  code?: string;
}

/**
 * Asks a signed-in user to prove it is them again before a change a stolen session must not make
 * on its own (the password, a second factor, the recovery codes): the current password, or a code
 * of the user's second factor. Rate limited per user (a stolen session must not become a password
 * or code oracle); a refusal is audited under `action` and answered under the caller's field names.
 */
export async function reauthenticate(
  ctx: { store: Store; secrets: Secrets; ip: string },
  user: SessionUser,
  input: ReauthInput,
  action: string,
  fields: { password: string; code: string } = { password: 'password', code: 'code' },
) {
  const { store } = ctx;
  const password = input.password ?? '';
  const code = (input.code ?? '').replace(/[\s-]+/g, '').toLowerCase();
  if (!password && !code) throw FieldErrors.one(fields.password, 'factors.reauth_required');
  // Counted before the check, atomically: parallel guesses each see the ones before them.
  const slot = await takeSlot(store, passwordLimit(user.id));
  if (slot.wait > 0) throw new ApiError(429, 'account.password_locked', { minutes: minutesFor(slot.wait) });
  let proven: boolean;
  if (password) {
    const row = await store.selectFrom('user').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    proven = await verifyPassword(row.password_hash, password);
  } else {
    proven = /^\d{6}$/.test(code) ? await checkTotp(store, ctx.secrets, user.id, code) : await spendRecoveryCode(store, user.id, code);
  }
  if (!proven) {
    await recordActivity(store, { action, outcome: 'failure', userId: user.id, realmId: user.realmId, ip: ctx.ip });
    throw password ? FieldErrors.one(fields.password, 'account.wrong_password') : FieldErrors.one(fields.code, 'factors.code_wrong');
  }
  // Proven: not a guess, the attempt is given back.
  await giveBack(store, slot);
}
