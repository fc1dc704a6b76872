import { API_BASE, type Endpoint, OPERATOR_TOKEN_PREFIX, REQUEST_HEADER, TOKEN_PATTERN } from '@atalaya/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { takeSlot } from '../kernel/ratelimit.ts';
import { authenticateOperator } from '../modules/operator/tokens.ts';
import type { Operator } from '../modules/permission/caller.ts';
import { authenticateToken, bearerOf } from '../modules/session/authenticate-token.ts';
import { SESSION_COOKIE } from '../modules/session/sessions.ts';
import { operatorLimit, tokenLimit } from '../modules/token/limits.ts';
import { ApiError } from './errors.ts';
import { allowedHosts } from './origins.ts';
import { oncePerTurn } from './turn.ts';

/**
 * How a route may be reached without a session. Default: not at all.
 * - 'read': a public GET with no side effects (config, captcha, legal); needs no CSRF header.
 * - 'form': a public call with effects (sign-in, contact); needs the CSRF header like any other.
 */
export type Access = 'read' | 'form';
declare module 'fastify' {
  interface FastifyContextConfig {
    public?: Access;
    /** The WebSocket upgrade: browsers cannot add headers to it, so it is checked by Origin alone. */
    websocket?: boolean;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the call was authenticated by an API token (the activity log names it as the actor). */
    apiToken?: { id: number; name: string };
    /** Set when the call was authenticated by an operator token (decision 037). */
    operator?: Operator;
  }
}

export class NoSessionError extends Error {}

const isOperatorCall = (permission: Endpoint['permission'] | undefined) => Boolean(permission && 'operator' in permission);

const isEnrolmentCall = (permission: Endpoint['permission'] | undefined) =>
  Boolean(permission && 'session' in permission && permission.enrolling);

/** A registered /p247/ route and how it may be reached without a session; the default-deny test walks them all. */
export interface ApiRoute {
  methods: string[];
  url: string;
  access?: Access;
  /** The endpoint-table entry the route was registered from (http/route.ts). */
  endpoint?: Endpoint;
}
declare module 'fastify' {
  interface FastifyInstance {
    apiRoutes: ApiRoute[];
  }
}

/**
 * Refuses cross-site calls: a Host that is not one of the panel's names (DNS rebinding), a foreign
 * Origin, or a Sec-Fetch-Site that is not same-origin. The Origin is compared with the Host only
 * once the Host is known to be the panel's (see http/origins.ts).
 */
export function isCrossSite(request: FastifyRequest, publicOrigin: string | undefined, isAllowedHost: (host: string) => boolean): boolean {
  const host = request.host;
  if (!isAllowedHost(host)) return true;
  const origin = request.headers.origin;
  if (origin && origin !== publicOrigin && origin !== `http://${host}` && origin !== `https://${host}`) return true;
  const site = request.headers['sec-fetch-site'];
  return Boolean(site && site !== 'same-origin' && site !== 'none');
}

/** Default deny: every /p247/ route needs a live session unless it declares itself public. */
export function registerGuard(app: FastifyInstance) {
  app.decorateRequest('user', null);
  app.decorateRequest('access', null);
  // The last uses of sessions waiting in memory reach the store before it closes.
  app.addHook('onClose', async () => app.authCache.close());
  const routes: ApiRoute[] = [];
  app.decorate('apiRoutes', routes);
  app.addHook('onRoute', (route) => {
    if (!route.url?.startsWith(API_BASE)) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    routes.push({ methods, url: route.url, access: route.config?.public, endpoint: route.config?.endpoint });
  });
  const isAllowedHost = allowedHosts(app);
  // Nothing to do but wait for the turn's end: what a call without a session waits for.
  const signedOutTurn = oncePerTurn(async () => {});
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith(API_BASE)) return;
    const route = request.routeOptions;
    // Unknown API paths reach the static files' catch-all route, whose miss answers the envelope's 404.
    if (!route.url?.startsWith(API_BASE)) return;
    const config = route.config ?? {};
    const bearer = bearerOf(request.headers.authorization);
    // The operator calls and the customer calls never share a credential (decision 037).
    if (isOperatorCall(config.permission)) return operatorCall(app, request, reply, bearer, isAllowedHost);
    if (bearer?.startsWith(OPERATOR_TOKEN_PREFIX)) throw new ApiError(403, 'operator.operator_token');
    if (bearer !== undefined) return tokenCall(app, request, bearer, isAllowedHost);
    if (isCrossSite(request, app.runtime.config.publicOrigin, isAllowedHost)) throw new ApiError(403, 'main.cross_site');
    const needsHeader = !(config.public === 'read' && (request.method === 'GET' || request.method === 'HEAD'));
    if (needsHeader && !config.websocket && request.headers[REQUEST_HEADER] !== '1') {
      throw new ApiError(403, 'main.cross_site');
    }
    const token = request.cookies[SESSION_COOKIE];
    if (token) {
      await app.authCache.sync();
      request.user = await app.authCache.session(token);
    } else {
      // No session to look up, nor a cached one to check the store's version for: a signed-out
      // page's public calls read nothing (a health check answers with the store down). They still
      // wait for their turn's end, to be answered together like the signed-in ones (http/turn.ts).
      await signedOutTurn();
    }
    if (!config.public && !request.user) throw new NoSessionError();
    // A realm that requires a second factor: until the user has one, only the enrolment calls answer.
    if (!config.public && request.user?.mustEnrol && !isEnrolmentCall(config.permission)) {
      throw new ApiError(403, 'factors.required');
    }
  });
}

/**
 * A call with `Authorization: Bearer`: no cookie and no CSRF header needed, since a browser never
 * adds that header to a cross-site request by itself (and the panel grants no CORS). A bad token
 * answers 401, a call that manages the account itself 403, a token of a user whose realm requires a
 * second factor they lack 403, and each token has its own rate limit.
 */
async function tokenCall(app: FastifyInstance, request: FastifyRequest, bearer: string, isAllowedHost: (host: string) => boolean) {
  // The Host check still holds: the panel answers only under its own names.
  if (!isAllowedHost(request.host)) throw new ApiError(403, 'main.cross_site');
  await app.authCache.sync();
  const user = await authenticateToken(app.runtime.config, app.runtime.store, bearer, request.ip);
  if (!user?.token) throw new ApiError(401, 'account.token_invalid');
  // Known from here on: the refusals below speak the user's language.
  request.user = user;
  request.apiToken = { id: user.token.id, name: user.token.name };
  if (request.routeOptions.config?.endpoint?.sessionOnly) throw new ApiError(403, 'account.token_session_only');
  // The realm's second-factor rule holds for tokens as for sessions: the enrolment calls a session
  // may still make are session-only, so a token of a user who must enrol answers nothing.
  if (user.mustEnrol) throw new ApiError(403, 'factors.required');
  const slot = await takeSlot(app.runtime.store, tokenLimit(user.token.id));
  if (slot.wait > 0) throw new ApiError(429, 'account.token_rate_limited', { seconds: slot.wait });
}

/**
 * An operator call: only an operator token reaches it. No token (a browser session included)
 * answers 401, a customer's API token 403, a bad, expired or out-of-range operator token 401, and
 * each operator token has its own rate limit (429 with Retry-After).
 * Whether its scope covers the call is the route's check, from the call's entry.
 */
async function operatorCall(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  bearer: string | undefined,
  isAllowedHost: (host: string) => boolean,
) {
  if (!isAllowedHost(request.host)) throw new ApiError(403, 'main.cross_site');
  if (bearer === undefined) throw new ApiError(401, 'operator.token_required');
  if (TOKEN_PATTERN.test(bearer)) throw new ApiError(403, 'operator.customer_token');
  const operator = await authenticateOperator(app.runtime.store, bearer, request.ip);
  if (!operator) throw new ApiError(401, 'operator.token_invalid');
  request.operator = operator;
  const slot = await takeSlot(app.runtime.store, operatorLimit(operator.id));
  if (slot.wait > 0) {
    reply.header('retry-after', String(slot.wait));
    throw new ApiError(429, 'operator.rate_limited', { seconds: slot.wait });
  }
}
