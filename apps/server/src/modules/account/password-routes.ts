import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../http/actor.ts';
import { route } from '../../http/route.ts';
import { setSessionCookie } from './cookie.ts';
import { createMailer } from './mailer.ts';
import { changePassword } from './password.ts';
import { tellHolder } from './security-notice.ts';

/** POST /user/changepass/: every session ends and every token goes, this browser gets a fresh session and stays signed in. */
export default async function passwordRoutes(app: FastifyInstance) {
  const { store, config, secrets } = app.runtime;
  const mailer = createMailer(config);
  route(app, endpoints.account.changePassword, async (request, reply) => {
    const account = { store, secrets, ip: request.ip };
    const token = await changePassword(account, request.user!, request.body, actorOf(request));
    setSessionCookie(request, reply, token);
    await tellHolder(app, request, mailer, 'password_changed');
    return { data: null, info: [{ key: 'account.password_changed' }] };
  });
}
