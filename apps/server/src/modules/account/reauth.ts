import { ApiError, FieldErrors } from '../../http/errors.ts';
import { giveBack, minutesFor, passwordLimit, takeSlot } from '../../kernel/ratelimit.ts';
import { verifyPassword } from '../../passwords.ts';
import type { Secrets } from '../../secrets.ts';
import type { Store } from '../../store/db.ts';
import { recordActivity } from '../activity/record.ts';
import { checkTotp, isNewTotpCode } from '../factors/factors.ts';
import { isNewRecoveryCode, spendRecoveryCode } from '../factors/recovery.ts';
import type { SessionUser } from '../permission/caller.ts';

export interface ReauthInput {
  password?: string;
  /** A code of the user's authenticator app, or one of its recovery codes. */
  code?: string;
}

/**
 * When the caller's session began; 0 when it is gone (nothing but the password counts then). Only
 * a factor, or recovery codes, the user held before this moment prove it is them: whoever holds a
 * stolen session could have enrolled anything after it.
 */
async function sessionStart(store: Store, user: SessionUser): Promise<number> {
  const row = await store.selectFrom('session').select('created_at').where('id', '=', user.sessionId).executeTakeFirst();
  return Number(row?.created_at ?? 0);
}

/**
 * Asks a signed-in user to prove it is them again before a change a stolen session must not make
 * on its own (the password, a second factor, the recovery codes, an API token): the current
 * password, or a code of a second factor enrolled before this session began (a code of one added
 * since, or a recovery code issued since, is refused with its own message). Rate limited per user
 * (a stolen session must not become a password or code oracle); a refusal is audited under
 * `action` and answered under the caller's field names.
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
  let tooNew = false;
  if (password) {
    const row = await store.selectFrom('user').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    proven = await verifyPassword(row.password_hash, password);
  } else {
    const since = await sessionStart(store, user);
    const isTotp = /^\d{6}$/.test(code);
    proven = isTotp ? await checkTotp(store, ctx.secrets, user.id, code, since) : await spendRecoveryCode(store, user.id, code, since);
    if (!proven) {
      tooNew = isTotp
        ? await isNewTotpCode(store, ctx.secrets, user.id, code, since)
        : await isNewRecoveryCode(store, user.id, code, since);
    }
  }
  if (!proven) {
    await recordActivity(store, { action, outcome: 'failure', userId: user.id, realmId: user.realmId, ip: ctx.ip });
    if (password) throw FieldErrors.one(fields.password, 'account.wrong_password');
    throw FieldErrors.one(fields.code, tooNew ? 'factors.code_too_new' : 'factors.code_wrong');
  }
  // Proven: not a guess, the attempt is given back.
  await giveBack(store, slot);
}
