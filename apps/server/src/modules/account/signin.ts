import type { LoginAnswer, LoginInput } from '@atalaya/contract';
import { ApiError, FieldErrors } from '../../http/errors.ts';
import { clearCounter, giveBack, LOGIN_LIMITS, minutesFor, takeSlots } from '../../kernel/ratelimit.ts';
import { recordActivity } from '../activity/record.ts';
import type { Captcha } from './captcha.ts';
import { checkCredentials, signInIdentity } from './credentials.ts';
import { secondFactorChallenge } from './signin-second.ts';
import { openSession, type SignInBase, signedInAnswer } from './signin-session.ts';

export type SignInContext = SignInBase & { captcha: Captcha };

/**
 * Sign-in: rate limits, captcha, credentials, then a fresh session, or, for a user with a second
 * factor, a sealed challenge for the second step (signin-second.ts) and no session yet. Every
 * attempt goes to the activity log with what was typed except the password; every refusal of the
 * credentials reads the same.
 */
export async function signIn(ctx: SignInContext, input: LoginInput) {
  const { store, ip, agent } = ctx;
  const audit = (entry: Parameters<typeof recordActivity>[1]) => recordActivity(store, { agent, area: 'account', ...entry });
  const typed = { domainName: input.domainName.slice(0, 253).toLowerCase(), username: input.username.slice(0, 64).toLowerCase() };
  // Keyed by the account as the credential check resolves it, whatever spelling was typed.
  const identity = signInIdentity(input);
  // Counted before anything is checked (one atomic statement per limit): parallel attempts each
  // see the ones before them. An attempt that turns out not to be a wrong password gives its slots back.
  const { slots, wait } = await takeSlots(store, [LOGIN_LIMITS.user(identity.realm, identity.username), LOGIN_LIMITS.ip(ip)]);
  if (wait > 0) {
    await audit({ action: 'login', outcome: 'locked', ip, detail: typed });
    throw new ApiError(429, 'account.login_locked', { minutes: minutesFor(wait) });
  }
  if (!(await ctx.captcha.verify(input.recaptcha_response))) {
    await Promise.all(slots.map((slot) => giveBack(store, slot)));
    await audit({ action: 'login', outcome: 'captcha', ip, detail: typed });
    throw FieldErrors.one('recaptcha_response', 'account.captcha_invalid');
  }
  const result = await checkCredentials(store, input);
  const who = { userId: result.known?.id, realmId: result.known?.realmId, ip, detail: typed };
  if (result.suspended) {
    await audit({ action: 'login', outcome: 'suspended', ...who });
    throw new ApiError(403, 'account.realm_suspended');
  }
  if (!result.user) {
    await audit({ action: 'login', outcome: 'failure', ...who });
    throw new ApiError(401, 'account.login_failed');
  }
  await clearCounter(store, slots[0].limit.key);
  await giveBack(store, slots[1]);
  const challenge = await secondFactorChallenge(ctx, result.user.id);
  if (challenge) {
    await audit({ action: 'login', outcome: 'second_factor', ...who });
    return { token: null, answer: { success: false, domainID: null, secondFactor: challenge } satisfies LoginAnswer };
  }
  const token = await openSession(ctx, result.user);
  await audit({ action: 'login', outcome: 'success', ...who });
  return { token, answer: await signedInAnswer(ctx, result.user) };
}
