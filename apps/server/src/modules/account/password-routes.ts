import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../http/actor.ts';
import { route } from '../../http/route.ts';
import { setSessionCookie } from './cookie.ts';
import { changePassword } from './password.ts';

/** POST /user/changepass/: every session ends, this browser gets a fresh one and stays signed in. */
export default async function passwordRoutes(app: FastifyInstance) {
  const { store, secrets } = app.runtime;
  route(app, endpoints.account.changePassword, async (request, reply) => {
    const account = { store, secrets, ip: request.ip };
    const token = await changePassword(account, request.user!, request.body, actorOf(request));
    setSessionCookie(request, reply, token);
    return { data: null, info: [{ key: 'account.password_changed' }] };
  });
}
