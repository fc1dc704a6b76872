import { type Language, LANGUAGES, toLanguage } from '@atalaya/contract';
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The `language` field of the call, read before validation strips it. */
    forcedLanguage?: Language;
  }
}

export function readForcedLanguage(request: FastifyRequest) {
  const forced =
    (request.body as Record<string, unknown> | undefined)?.language ??
    (request.query as Record<string, unknown> | undefined)?.language;
  if (typeof forced === 'string' && (LANGUAGES as readonly string[]).includes(forced)) {
    request.forcedLanguage = forced as Language;
  }
}

/** A forced `language` field wins, then the signed-in user's choice, the `_lang` cookie, the browser. */
export function requestLanguage(request: FastifyRequest): Language {
  if (request.forcedLanguage) return request.forcedLanguage;
  if (request.user) return toLanguage(request.user.language);
  const cookie = request.cookies?._lang;
  if (cookie) return toLanguage(cookie);
  const accept = request.headers['accept-language']?.slice(0, 2).toLowerCase();
  return toLanguage(accept);
}
