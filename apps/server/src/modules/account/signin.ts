import type { LoginAnswer, LoginInput } from '@atalaya/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config/config.ts';
import { ApiError, FieldErrors } from '../../http/errors.ts';
import type { Secrets } from '../../secrets.ts';
import { now, type Store } from '../../store/db.ts';
import { agentFamily } from '../activity/agent.ts';
import { recordActivity } from '../activity/record.ts';
import { hasFactor } from '../factors/factors.ts';
import { type RelyingParty, relyingParty } from '../factors/passkeys.ts';
import { factorRequired } from '../factors/required.ts';
import { secondFactorChallenge } from '../factors/signin-second.ts';
import { createSession, deleteSession } from '../session/sessions.ts';
import type { Captcha } from './captcha.ts';
import { checkCredentials, signInIdentity } from './credentials.ts';
import { landingItem } from './landing.ts';
import type { Mailer } from './mailer.ts';
import { clearCounter, giveBack, LOGIN_LIMITS, minutesFor, takeSlots } from './ratelimit.ts';
import { isUnfamiliar, mailSignInNotice, type SignInPlace } from './signin-notice.ts';

/** What both sign-in steps run on; the first step adds the captcha. */
export interface SignInBase {
  store: Store;
  config: Config;
  secrets: Secrets;
  ip: string;
  /** The WebAuthn relying party of this request, for the second step's passkey options. */
  rp: RelyingParty;
  /** The browser family the attempt came from (activity/agent.ts). */
  agent: string;
  /** Told of a successful sign-in from an address or browser the user has not signed in from before. */
  onUnfamiliar?: (place: SignInPlace, at: number) => Promise<void>;
  /** The hashed id of the session the browser already had, ended so the new one gets a new id. */
  previousSessionId?: string;
}
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

/**
 * The new session of a user who proved who they are: the last sign-in noted, the browser's old
 * session ended, and a notice when the address or browser is new for the user.
 */
export async function openSession(
  ctx: Pick<SignInBase, 'store' | 'ip' | 'agent' | 'onUnfamiliar' | 'previousSessionId'>,
  user: { id: number },
) {
  const { store, ip } = ctx;
  const place = { userId: user.id, ip, agent: ctx.agent };
  // Compared with the sign-ins before this one, so it is read before this one is recorded.
  const unfamiliar = await isUnfamiliar(store, place, (await recordSignIn(store, user.id, ip)) === null);
  if (ctx.previousSessionId) await deleteSession(store, ctx.previousSessionId);
  const token = await createSession(store, user.id, ip);
  if (unfamiliar) await ctx.onUnfamiliar?.(place, now());
  return token;
}

/** The answer of a finished sign-in: where to land, or that a second factor must be enrolled first. */
export async function signedInAnswer(
  ctx: Pick<SignInBase, 'store' | 'config'>,
  user: { id: number; realmId: number },
): Promise<LoginAnswer> {
  const realm = await ctx.store
    .selectFrom('realm')
    .select(['name', 'require_second_factor'])
    .where('id', '=', user.realmId)
    .executeTakeFirstOrThrow();
  if (factorRequired(ctx.config, realm) && !(await hasFactor(ctx.store, user.id)))
    return { success: true, domainID: null, mustEnrol: true };
  return { success: true, domainID: await landingItem(ctx.store, user) };
}

/** What both sign-in steps run on, from the request; `mailer` sends the notice of an unfamiliar sign-in. */
export const signInContext = (app: FastifyInstance, request: FastifyRequest, mailer: Mailer): SignInBase => ({
  store: app.runtime.store,
  config: app.runtime.config,
  secrets: app.runtime.secrets,
  ip: request.ip,
  agent: agentFamily(request.headers['user-agent']),
  rp: relyingParty(request),
  previousSessionId: request.user?.sessionId,
  // A mail server that is down must not keep the user out: the notice is lost, the failure logged.
  onUnfamiliar: (place, at) =>
    mailSignInNotice(app.runtime.store, app.runtime.config, mailer, place, at).then(
      () => undefined,
      (err) => request.log.error({ err }, 'new sign-in notice not sent'),
    ),
});

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
