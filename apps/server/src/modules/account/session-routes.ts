import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { deleteSession } from '../session/sessions.ts';
import { audit } from './audit.ts';
import type { Captcha } from './captcha.ts';
import { clearSessionCookie, setSessionCookie } from './cookie.ts';
import { signIn, signInContext } from './signin.ts';

/** POST /user/login/ and /user/logout/. */
export default async function sessionRoutes(app: FastifyInstance, opts: { captcha: Captcha }) {
  route(app, endpoints.account.login, async (request, reply) => {
    const { token, answer } = await signIn({ ...signInContext(app, request), captcha: opts.captcha }, request.body);
    if (token) setSessionCookie(request, reply, token);
    return { data: answer };
  });

  // Public so that signing out of an already expired session still clears the cookie instead of
  // opening the login modal; the CSRF header is still required, so no other site can sign anyone out.
  route(app, endpoints.account.logout, async (request, reply) => {
    const user = request.user;
    if (user) {
      await deleteSession(app.store, user.sessionId);
      await audit(app.store, { action: 'logout', outcome: 'success', userId: user.id, realmId: user.realmId, ip: request.ip });
    }
    clearSessionCookie(request, reply);
    return { data: null, info: [{ key: 'account.logged_out' }] };
  });
}
