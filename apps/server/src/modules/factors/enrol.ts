import { FieldErrors } from '../../http/errors.ts';
import type { Secrets } from '../../secrets.ts';
import { now, type Store } from '../../store/db.ts';
import { isUniqueViolation } from '../../store/errors.ts';
import { recordActivity } from '../activity/record.ts';
import type { SessionUser } from '../permission/caller.ts';
import { hasFactor, totpFactor } from './factors.ts';
import { type RelyingParty, verifyRegistration } from './passkeys.ts';
import { newRecoveryCodes, recoveryCodesLeft } from './recovery.ts';
import { openToken } from './tokens.ts';
import { matchTotp } from './totp.ts';

export interface FactorContext {
  store: Store;
  secrets: Secrets;
  ip: string;
}

/**
 * Stores a new factor and, when it is the user's first (or no recovery code is left), a fresh
 * set of recovery codes, answered to be shown once. Audited.
 */
async function addFactor(ctx: FactorContext, user: SessionUser, row: Parameters<typeof insertFactor>[1]) {
  await insertFactor(ctx.store, row);
  await recordActivity(ctx.store, {
    action: 'factor_add',
    outcome: 'success',
    userId: user.id,
    realmId: user.realmId,
    ip: ctx.ip,
    detail: { kind: row.kind },
  });
  const codes = (await recoveryCodesLeft(ctx.store, user.id)) === 0 ? await newRecoveryCodes(ctx.store, user.id) : null;
  return { recoveryCodes: codes };
}

const insertFactor = (
  store: Store,
  row: {
    user_id: number;
    kind: 'totp' | 'passkey';
    name: string;
    secret?: string;
    last_step?: number;
    credential_id?: string;
    public_key?: string;
    sign_count?: number;
    transports?: string;
  },
) =>
  store
    .insertInto('second_factor')
    .values({ ...row, created_at: now(), last_used_at: null })
    .execute();

/**
 * Confirms an authenticator app with a first code of the secret the start call sealed into the
 * token: only then is the secret stored (sealed), with the code's step spent. One app per user.
 */
export async function confirmTotp(ctx: FactorContext, user: SessionUser, input: { token: string; code: string }, name: string) {
  const enrolment = openToken(ctx.secrets, 'totp-enrol', input.token, user.id);
  if (!enrolment?.data.secret) throw FieldErrors.one('code', 'factors.expired');
  if (await totpFactor(ctx.store, user.id)) throw FieldErrors.one('code', 'factors.totp_exists');
  const step = matchTotp(enrolment.data.secret, input.code, now(), 0);
  if (step === null) throw FieldErrors.one('code', 'factors.code_wrong');
  return addFactor(ctx, user, {
    user_id: user.id,
    kind: 'totp',
    name,
    secret: ctx.secrets.encrypt(enrolment.data.secret),
    last_step: step,
  });
}

/** Registers a passkey from the browser's answer to the options sealed into the token. */
export async function registerPasskey(
  ctx: FactorContext,
  user: SessionUser,
  input: { token: string; name: string; credential: string },
  rp: RelyingParty,
) {
  const enrolment = openToken(ctx.secrets, 'passkey-enrol', input.token, user.id);
  if (!enrolment?.data.challenge || enrolment.data.rpID !== rp.rpID) throw FieldErrors.one('credential', 'factors.expired');
  const made = await verifyRegistration(input.credential, enrolment.data.challenge, rp);
  if (!made) throw FieldErrors.one('credential', 'factors.passkey_failed');
  try {
    return await addFactor(ctx, user, { user_id: user.id, kind: 'passkey', name: input.name, ...made });
  } catch (error) {
    if (isUniqueViolation(error)) throw FieldErrors.one('credential', 'factors.passkey_exists');
    throw error;
  }
}

/**
 * Removes one of the user's factors (the caller has re-authenticated) and ends every other
 * session of the user: whoever added or used a factor from a stolen session is out. The last
 * factor gone, the recovery codes go with it (they stand in for a factor the user no longer has).
 */
export async function removeFactor(ctx: FactorContext, user: SessionUser, id: number) {
  const removed = await ctx.store.transaction().execute(async (trx) => {
    const result = await trx.deleteFrom('second_factor').where('id', '=', id).where('user_id', '=', user.id).executeTakeFirst();
    if (Number(result.numDeletedRows) !== 1) return false;
    await trx.deleteFrom('session').where('user_id', '=', user.id).where('id', '!=', user.sessionId).execute();
    return true;
  });
  if (!removed) return false;
  if (!(await hasFactor(ctx.store, user.id))) await ctx.store.deleteFrom('recovery_code').where('user_id', '=', user.id).execute();
  await recordActivity(ctx.store, {
    action: 'factor_remove',
    outcome: 'success',
    userId: user.id,
    realmId: user.realmId,
    ip: ctx.ip,
    detail: { id },
  });
  return true;
}
