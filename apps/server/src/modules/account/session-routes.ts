import { endpoints, type LoginAnswer } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../http/actor.ts';
import { route } from '../../http/route.ts';
import { agentFamily } from '../activity/agent.ts';
import { recordActivity } from '../activity/record.ts';
import { deleteSession } from '../session/sessions.ts';
import type { Captcha } from './captcha.ts';
import { clearSessionCookie, setSessionCookie } from './cookie.ts';
import type { Mailer } from './mailer.ts';
import { signIn } from './signin.ts';
import { mailSignInNotice } from './signin-notice.ts';

/** POST /user/login/ and /user/logout/. */
export default async function sessionRoutes(app: FastifyInstance, opts: { captcha: Captcha; mailer: Mailer }) {
  route(app, endpoints.account.login, async (request, reply) => {
    const ctx = {
      store: app.store,
      captcha: opts.captcha,
      ip: request.ip,
      agent: agentFamily(request.headers['user-agent']),
      previousSessionId: request.user?.sessionId,
      // A mail server that is down must not keep the user out: the notice is lost, the failure logged.
      onUnfamiliar: (place: Parameters<typeof mailSignInNotice>[3], at: number) =>
        mailSignInNotice(app.store, app.config, opts.mailer, place, at).then(
          () => undefined,
          (err) => request.log.error({ err }, 'new sign-in notice not sent'),
        ),
    };
    const { token, domainID } = await signIn(ctx, request.body);
    setSessionCookie(request, reply, token);
    const data: LoginAnswer = { success: true, domainID };
    return { data };
  });

  // Public so that signing out of an already expired session still clears the cookie instead of
  // opening the login modal; the CSRF header is still required, so no other site can sign anyone out.
  route(app, endpoints.account.logout, async (request, reply) => {
    const user = request.user;
    if (user) {
      await deleteSession(app.store, user.sessionId);
      await recordActivity(app.store, { ...actorOf(request), action: 'logout', area: 'account' });
    }
    clearSessionCookie(request, reply);
    return { data: null, info: [{ key: 'account.logged_out' }] };
  });
}
