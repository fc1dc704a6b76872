import type { LoginAnswer } from '@atalaya/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config/config.ts';
import type { Secrets } from '../../secrets.ts';
import { now, type Store } from '../../store/db.ts';
import { agentFamily } from '../activity/agent.ts';
import { hasFactor } from '../factors/factors.ts';
import { type RelyingParty, relyingParty } from '../factors/passkeys.ts';
import { factorRequired } from '../factors/required.ts';
import { createSession, deleteSession } from '../session/sessions.ts';
import { landingItem } from './landing.ts';
import type { Mailer } from './mailer.ts';
import { isUnfamiliar, mailSignInNotice, type SignInPlace } from './signin-notice.ts';

// The end both sign-in steps share (signin.ts, signin-second.ts): the session of a user who proved
// who they are, and the answer that sends them on. Kept apart so the two steps import it, not each other.

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
