import type { FastifyInstance } from 'fastify';
import type { Captcha } from './captcha.ts';

/** GET /captcha/: a fresh ALTCHA challenge; its solved payload comes back as recaptcha_response. */
export default async function captchaRoutes(app: FastifyInstance, opts: { captcha: Captcha }) {
  app.get('/captcha/', { config: { public: 'read' } }, async () => ({ data: await opts.captcha.create() }));
}
