import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../http/actor.ts';
import { route } from '../../http/route.ts';
import { recordActivity } from '../activity/record.ts';
import { deleteSession } from '../session/sessions.ts';
import type { Captcha } from './captcha.ts';
import { clearSessionCookie, setSessionCookie } from './cookie.ts';
import type { Mailer } from './mailer.ts';
import { signIn } from './signin.ts';
import { signInContext } from './signin-session.ts';

/** POST /user/login/ and /user/logout/. */
export default async function sessionRoutes(app: FastifyInstance, opts: { captcha: Captcha; mailer: Mailer }) {
  const { store } = app.runtime;
  route(app, endpoints.account.login, async (request, reply) => {
    const { token, answer } = await signIn({ ...signInContext(app, request, opts.mailer), captcha: opts.captcha }, request.body);
    if (token) setSessionCookie(request, reply, token);
    return { data: answer };
  });

  // Public so that signing out of an already expired session still clears the cookie instead of
  // opening the login modal; the CSRF header is still required, so no other site can sign anyone out.
  route(app, endpoints.account.logout, async (request, reply) => {
    const user = request.user;
    if (user) {
      await deleteSession(store, user.sessionId);
      await recordActivity(store, { ...actorOf(request), action: 'logout', area: 'account' });
    }
    clearSessionCookie(request, reply);
    return { data: null, info: [{ key: 'account.logged_out' }] };
  });
}
