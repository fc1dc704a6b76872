import type { FastifyInstance } from 'fastify';

const CSP = [
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
 * The same headers on every answer, computed once (helmet rebuilt them on each request, a visible
 * share of a small read). Set before the handler, so a route may narrow them (the installer's logos).
 */
export function registerSecurityHeaders(app: FastifyInstance) {
  const headers: Record<string, string> = {
    'content-security-policy': CSP,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
  };
  if (app.config.publicOrigin?.startsWith('https:')) headers['strict-transport-security'] = 'max-age=31536000';
  // Callback-style hooks here and in the envelope: an async hook costs a promise and a turn of the
  // microtask queue on every request, for work that never waits.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
