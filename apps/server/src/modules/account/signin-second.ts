import type { LoginAnswer, SecondFactorChallenge, secondStepSchema } from '@atalaya/contract';
import type { z } from 'zod';
import { ApiError, FieldErrors } from '../../http/errors.ts';
import { clearCounter, giveBack, LOGIN_LIMITS, minutesFor, secondFactorLimit, takeSlots } from '../../kernel/ratelimit.ts';
import { recordActivity } from '../activity/record.ts';
import { checkTotp, totpFactor } from '../factors/factors.ts';
import { authenticationOptions, checkPasskey } from '../factors/passkeys.ts';
import { spendRecoveryCode } from '../factors/recovery.ts';
import { openToken, sealToken, TOKEN_SECONDS } from '../factors/tokens.ts';
import { openSession, type SignInBase, signedInAnswer } from './signin-session.ts';

/**
 * The first step's answer for a user with a second factor: a sealed challenge bound to the user,
 * living five minutes, with the WebAuthn challenge of the user's passkeys inside. No session and
 * no row exist until the second step succeeds. Null: the user has no second factor.
 */
export async function secondFactorChallenge(ctx: SignInBase, userId: number): Promise<SecondFactorChallenge | null> {
  const totp = Boolean(await totpFactor(ctx.store, userId));
  const passkey = await authenticationOptions(ctx.store, userId, ctx.rp);
  if (!totp && !passkey) return null;
  const data: Record<string, string> = passkey ? { webauthn: passkey.challenge, rpID: ctx.rp.rpID } : {};
  const { token } = sealToken(ctx.secrets, 'signin', userId, data);
  return { challenge: token, expiresIn: TOKEN_SECONDS, totp, passkey: passkey as unknown as Record<string, unknown> | null };
}

type SecondStepInput = z.output<typeof secondStepSchema>;

/**
 * POST /user/login/second/: the challenge of the first step and one factor (a TOTP code, a
 * recovery code or a passkey assertion). Rate limited like passwords, per user and per IP, counted
 * before the check. A success spends the challenge (one challenge, one session) and opens the
 * session the first step held back.
 */
export async function signInSecondStep(ctx: SignInBase, input: SecondStepInput): Promise<{ token: string; answer: LoginAnswer }> {
  const { store, ip } = ctx;
  const challenge = openToken(ctx.secrets, 'signin', input.challenge);
  if (!challenge) {
    await recordActivity(store, { action: 'login_second', outcome: 'expired', ip });
    throw new ApiError(401, 'factors.expired');
  }
  const user = await store
    .selectFrom('user')
    .innerJoin('realm', 'realm.id', 'user.realm_id')
    .select(['user.id', 'user.realm_id', 'user.disabled', 'realm.disabled as realm_disabled'])
    .where('user.id', '=', challenge.userId)
    .executeTakeFirst();
  // Disabled (or deleted) since the first step: the challenge is worth nothing any more.
  if (!user || user.disabled || user.realm_disabled) throw new ApiError(401, 'factors.expired');
  const who = { userId: user.id, realmId: user.realm_id, ip };
  if (!input.code && !input.recoveryCode && !input.credential) throw FieldErrors.one('code', 'factors.choose');

  const { slots, wait } = await takeSlots(store, [secondFactorLimit(user.id), LOGIN_LIMITS.ip(ip)]);
  if (wait > 0) {
    await recordActivity(store, { action: 'login_second', outcome: 'locked', ...who });
    throw new ApiError(429, 'factors.locked', { minutes: minutesFor(wait) });
  }
  const refusal = await checkFactor(ctx, user.id, input, challenge.data);
  if (refusal) {
    await recordActivity(store, { action: 'login_second', outcome: 'failure', ...who });
    throw refusal;
  }
  // One challenge opens one session, in any process: the first use of its nonce wins.
  const spent = await store
    .insertInto('used_challenge')
    .values({ signature: `signin:${challenge.nonce}`, expires_at: challenge.expiresAt })
    .onConflict((oc) => oc.column('signature').doNothing())
    .executeTakeFirst();
  if (Number(spent.numInsertedOrUpdatedRows ?? 0) !== 1) throw new ApiError(401, 'factors.expired');
  await clearCounter(store, slots[0].limit.key);
  await giveBack(store, slots[1]);
  const token = await openSession(ctx, user);
  await recordActivity(store, { action: 'login_second', outcome: 'success', ...who, detail: { factor: factorName(input) } });
  return { token, answer: await signedInAnswer(ctx, { id: user.id, realmId: user.realm_id }) };
}

const factorName = (input: SecondStepInput) => (input.credential ? 'passkey' : input.recoveryCode ? 'recovery' : 'totp');

/** The refusal of the factor given, under its field, or null when it holds. */
async function checkFactor(ctx: SignInBase, userId: number, input: SecondStepInput, data: Record<string, string>) {
  if (input.credential) {
    const usable = data.webauthn && data.rpID === ctx.rp.rpID;
    const ok = usable && (await checkPasskey(ctx.store, userId, input.credential, data.webauthn, ctx.rp));
    return ok ? null : FieldErrors.one('credential', 'factors.passkey_failed');
  }
  if (input.recoveryCode) {
    return (await spendRecoveryCode(ctx.store, userId, input.recoveryCode))
      ? null
      : FieldErrors.one('recoveryCode', 'factors.recovery_wrong');
  }
  return (await checkTotp(ctx.store, ctx.secrets, userId, input.code!)) ? null : FieldErrors.one('code', 'factors.code_wrong');
}
