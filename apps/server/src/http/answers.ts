import { API_BASE, ENVELOPE_HEADER, STATUS_NO_SESSION, translate } from '@atalaya/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Answer, envelope } from './envelope.ts';
import { ApiError, FieldErrors } from './errors.ts';
import { NoSessionError } from './guard.ts';
import { forceLanguage, readForcedLanguage, requestLanguage } from './language.ts';
import { logoPreload } from './page-logo.ts';

const isAnswer = (payload: unknown): payload is Answer<unknown> =>
  typeof payload === 'object' && payload !== null && 'data' in payload && !('system' in payload);

function refuse(request: FastifyRequest, reply: FastifyReply, status: number, key: string, params = {}) {
  const lang = requestLanguage(request);
  return reply.status(status).send(envelope(null, { valid: false, statusCode: status, errors: [translate(lang, key, params)] }));
}

/**
 * What the router refuses before any route runs (a path that is not valid URL encoding, a path
 * parameter over `maxParamLength`): answered in the envelope like the rest, without echoing the
 * path. A parameter that long names nothing that can exist, so it is a 404 like any unknown id.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // No route matched, so no hook read the query's `language` field: read it from the raw URL.
  const language = new URLSearchParams(request.raw.url?.split('?')[1] ?? '').get('language');
  forceLanguage(request, language);
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return refuse(request, reply, 404, 'main.not_found');
  return refuse(request, reply, 400, 'main.malformed_body');
}

/** Wraps every /p247/ answer in the envelope, and maps every failure to one. */
export function registerEnvelope(app: FastifyInstance) {
  // Callback-style hooks: an async one costs a promise and a microtask turn on every request.
  app.addHook('preValidation', (request, _reply, done) => {
    readForcedLanguage(request);
    done();
  });

  app.addHook('preSerialization', (request, _reply, payload, done) => {
    if (!request.url.startsWith(API_BASE) || !isAnswer(payload)) return done(null, payload);
    if (!payload.info?.length && payload.job == null) return done(null, envelope(payload.data));
    const lang = requestLanguage(request);
    const info = (payload.info ?? []).map((m) => translate(lang, m.key, m.params));
    done(null, envelope(payload.data, { info, job: payload.job ?? null }));
  });

  // Marks the API's JSON answers as envelopes for the web client (its other headers: http/security-headers.ts).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith(API_BASE) && String(reply.getHeader('content-type') ?? '').startsWith('application/json')) {
      reply.header(ENVELOPE_HEADER, '1');
    }
    done(null, payload);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    // A refusal before the preValidation hook ran (an unreadable body, the guard's) still speaks the query's language.
    if (!request.forcedLanguage) readForcedLanguage(request);
    const lang = requestLanguage(request);
    if (error instanceof NoSessionError) {
      return reply.status(401).send(
        envelope(null, {
          valid: false,
          statusCode: STATUS_NO_SESSION,
          errors: [translate(lang, 'main.session_expired')],
        }),
      );
    }
    if (error instanceof FieldErrors) {
      return reply.status(400).send(
        envelope(null, {
          valid: false,
          statusCode: 400,
          inputs: error.fields.map((f) => f.input),
          errors: error.fields.map((f) => translate(lang, f.key, f.params)),
        }),
      );
    }
    if (error instanceof ApiError) return refuse(request, reply, error.status, error.key, error.params);
    if (error.statusCode === 413) {
      return refuse(request, reply, 413, 'main.too_large');
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return refuse(
        request,
        reply,
        error.statusCode === 404 ? 404 : 400,
        error.statusCode === 404 ? 'main.not_found' : 'validation.invalid',
      );
    }
    request.log.error({ err: error }, 'request failed');
    return refuse(request, reply, 500, 'main.internal_error', { requestId: request.id });
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith(API_BASE)) return refuse(request, reply, 404, 'main.not_found');
    // A missing asset (an old chunk asked for by a tab opened before an upgrade) is a 404: the SPA's
    // HTML in its place fails as "not a JavaScript module" and hides what happened.
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && 'sendFile' in reply && !request.url.startsWith('/assets/');
    if (wantsPage) {
      // Deep links such as /admin/domain/ are the SPA's routes.
      reply.header('cache-control', 'no-cache');
      const link = logoPreload(request.server.runtime.config.company, request.url.split('?')[0]);
      if (link) reply.header('link', link);
      return reply.sendFile('index.html');
    }
    return reply.status(404).type('text/plain').send('Not found');
  });
}
