import type { LoginInput } from '@atalaya/contract';
import { ApiError, FieldErrors } from '../../http/errors.ts';
import { now, type Store } from '../../store/db.ts';
import { recordActivity } from '../activity/record.ts';
import { createSession, deleteSession } from '../session/sessions.ts';
import type { Captcha } from './captcha.ts';
import { checkCredentials, signInIdentity } from './credentials.ts';
import { landingItem } from './landing.ts';
import { clearCounter, giveBack, LOGIN_LIMITS, minutesFor, takeSlots } from './ratelimit.ts';
import { isUnfamiliar, type SignInPlace } from './signin-notice.ts';

export interface SignInContext {
  store: Store;
  captcha: Captcha;
  ip: string;
  /** The browser family the attempt came from (activity/agent.ts). */
  agent: string;
  /** Told of a successful sign-in from an address or browser the user has not signed in from before. */
  onUnfamiliar?: (place: SignInPlace, at: number) => Promise<void>;
  /** The hashed id of the session the browser already had, ended so the new one gets a new id. */
  previousSessionId?: string;
}

/**
 * Sign-in: rate limits, captcha, credentials, then a fresh session. Every attempt goes to the activity log
 * with what was typed except the password; every refusal of the credentials reads the same.
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
  if (!result.user) {
    await audit({ action: 'login', outcome: 'failure', ...who });
    throw new ApiError(401, 'account.login_failed');
  }
  await clearCounter(store, slots[0].limit.key);
  await giveBack(store, slots[1]);
  const place = { userId: result.user.id, ip, agent };
  // Compared with the sign-ins before this one, so it is read before this one is recorded.
  const unfamiliar = await isUnfamiliar(store, place, (await recordSignIn(store, result.user.id, ip)) === null);
  if (ctx.previousSessionId) await deleteSession(store, ctx.previousSessionId);
  const token = await createSession(store, result.user.id, ip);
  await audit({ action: 'login', outcome: 'success', ...who });
  if (unfamiliar) await ctx.onUnfamiliar?.(place, now());
  return { token, domainID: await landingItem(store, result.user) };
}

/** Keeps the sign-in before this one (the "last login" the dashboard shows) and answers its time, null the first time. */
async function recordSignIn(store: Store, userId: number, ip: string) {
  const user = await store.selectFrom('user').select(['last_login_at', 'last_ip']).where('id', '=', userId).executeTakeFirstOrThrow();
  await store
    .updateTable('user')
    .set({ prev_login_at: user.last_login_at, prev_ip: user.last_ip, last_login_at: now(), last_ip: ip })
    .where('id', '=', userId)
    .execute();
  return user.last_login_at;
}
