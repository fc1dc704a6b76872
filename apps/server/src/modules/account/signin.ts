import type { LoginInput } from '@atalaya/contract';
import { ApiError, FieldErrors } from '../../http/errors.ts';
import { now, type Store } from '../../store/db.ts';
import { createSession, deleteSession } from '../session/sessions.ts';
import { audit } from './audit.ts';
import type { Captcha } from './captcha.ts';
import { checkCredentials } from './credentials.ts';
import { landingItem } from './landing.ts';
import { blockedFor, clearCounter, countEvent, LOGIN_LIMITS, minutesFor } from './ratelimit.ts';

export interface SignInContext {
  store: Store;
  captcha: Captcha;
  ip: string;
  /** The hashed id of the session the browser already had, ended so the new one gets a new id. */
  previousSessionId?: string;
}

/**
 * Sign-in: rate limits, captcha, credentials, then a fresh session. Every attempt is audited with what
 * was typed except the password; every refusal of the credentials reads the same.
 */
export async function signIn(ctx: SignInContext, input: LoginInput) {
  const { store, ip } = ctx;
  const typed = { domainName: input.domainName.slice(0, 253).toLowerCase(), username: input.username.slice(0, 64).toLowerCase() };
  const limits = [LOGIN_LIMITS.user(typed.domainName, typed.username), LOGIN_LIMITS.ip(ip)];
  const wait = Math.max(...(await Promise.all(limits.map((l) => blockedFor(store, l)))));
  if (wait > 0) {
    await audit(store, { action: 'login', outcome: 'locked', ip, detail: typed });
    throw new ApiError(429, 'account.login_locked', { minutes: minutesFor(wait) });
  }
  if (!(await ctx.captcha.verify(input.recaptcha_response))) {
    await audit(store, { action: 'login', outcome: 'captcha', ip, detail: typed });
    throw FieldErrors.one('recaptcha_response', 'account.captcha_invalid');
  }
  const result = await checkCredentials(store, input);
  const who = { userId: result.known?.id, realmId: result.known?.realmId, ip, detail: typed };
  if (!result.user) {
    for (const limit of limits) await countEvent(store, limit);
    await audit(store, { action: 'login', outcome: 'failure', ...who });
    throw new ApiError(401, 'account.login_failed');
  }
  await clearCounter(store, limits[0].key);
  await recordSignIn(store, result.user.id, ip);
  if (ctx.previousSessionId) await deleteSession(store, ctx.previousSessionId);
  const token = await createSession(store, result.user.id, ip);
  await audit(store, { action: 'login', outcome: 'success', ...who });
  return { token, domainID: await landingItem(store, result.user) };
}

/** Keeps the sign-in before this one: that is the "last login" the dashboard shows. */
async function recordSignIn(store: Store, userId: number, ip: string) {
  const user = await store.selectFrom('user').select(['last_login_at', 'last_ip']).where('id', '=', userId).executeTakeFirstOrThrow();
  await store
    .updateTable('user')
    .set({ prev_login_at: user.last_login_at, prev_ip: user.last_ip, last_login_at: now(), last_ip: ip })
    .where('id', '=', userId)
    .execute();
}
