import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../session/sessions.ts';

/** Secure whenever the browser reached us over TLS, directly or through the configured public origin. */
const overTls = (request: FastifyRequest) =>
  request.protocol === 'https' || Boolean(request.server.runtime.config.publicOrigin?.startsWith('https:'));

/** The session cookie: unreadable by scripts, never sent cross-site, living no longer than the session may. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: overTls(request),
    maxAge: request.server.runtime.config.session.absoluteHours * 3600,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure: overTls(request) });
}
