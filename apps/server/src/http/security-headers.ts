import { API_BASE } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';

/** The pages' policy: the SPA, its assets and everything else served outside the API. */
const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'", // no inline script anywhere: the SPA's entry is a file
  "style-src 'self' 'unsafe-inline'", // Mantine sets style attributes
  "img-src 'self' data:",
  "connect-src 'self'", // the API and the /p247/ws WebSocket
  "worker-src 'self' blob:", // ALTCHA solves its proof of work in workers
  "frame-ancestors 'none'",
  "form-action 'self' https:", // webmail, WebFTP and phpMyAdmin forms post to the provider's tools
  "object-src 'none'",
  "base-uri 'self'",
].join('; ');

/**
 * What every answer carries: it must never be framed, sniffed into another type or read by
 * another site's page.
 */
const EVERY_ANSWER = {
  'cross-origin-resource-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** A page also governs what it loads, where it navigates and which window it shares a process with. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  ...EVERY_ANSWER,
  'content-security-policy': PAGE_CSP,
  'cross-origin-opener-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-permitted-cross-domain-policies': 'none',
};

/**
 * An API answer is data, never rendered as a page: nothing in it may load or run (OWASP's REST
 * headers). The headers that only a page reads cost a fifth of the bare server's throughput on a
 * small answer (decision 024), for no protection.
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  ...EVERY_ANSWER,
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  // Every API answer is about one user's account: never stored by a cache.
  'cache-control': 'no-store',
};

const HSTS = { 'strict-transport-security': 'max-age=31536000' };

/**
 * The same headers on every answer, computed once (helmet rebuilt them on each request, a visible
 * share of a small read). Set before the handler, so a route may narrow them (the installer's logos).
 */
export function registerSecurityHeaders(app: FastifyInstance) {
  const https = app.runtime.config.publicOrigin?.startsWith('https:');
  const page = https ? { ...PAGE_HEADERS, ...HSTS } : PAGE_HEADERS;
  const api = https ? { ...API_HEADERS, ...HSTS } : API_HEADERS;
  // Callback-style hooks here and in the envelope: an async hook costs a promise and a turn of the
  // microtask queue on every request, for work that never waits.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith(API_BASE) ? api : page);
    done();
  });
}
