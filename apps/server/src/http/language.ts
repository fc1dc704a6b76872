import { LANGUAGES, type Language, toLanguage } from '@atalaya/contract';
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The `language` field of the call, read before validation strips it. */
    forcedLanguage?: Language;
  }
}

export function readForcedLanguage(request: FastifyRequest) {
  const body = request.body as Record<string, unknown> | undefined;
  const query = request.query as Record<string, unknown> | undefined;
  forceLanguage(request, body?.language ?? query?.language);
}

/** Makes `value` the call's language when it names one of ours; anything else is ignored. */
export function forceLanguage(request: FastifyRequest, value: unknown) {
  if (typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)) {
    request.forcedLanguage = value as Language;
  }
}

/** A forced `language` field wins, then the `_lang` cookie, the signed-in user's choice, the browser. */
export function requestLanguage(request: FastifyRequest): Language {
  if (request.forcedLanguage) return request.forcedLanguage;
  // The `_lang` cookie is the language the screens are showing: messages must match it, even when
  // the user's saved preference differs (chosen on the sign-in page, or in another browser).
  const cookie = request.cookies?._lang;
  if (cookie) return toLanguage(cookie);
  if (request.user) return toLanguage(request.user.language);
  const accept = request.headers['accept-language']?.slice(0, 2).toLowerCase();
  return toLanguage(accept);
}
