import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import type { Captcha } from './captcha.ts';

/** GET /captcha/: a fresh ALTCHA challenge; its solved payload comes back as recaptcha_response. */
export default async function captchaRoutes(app: FastifyInstance, opts: { captcha: Captcha }) {
  route(app, endpoints.account.captcha, async () => ({ data: await opts.captcha.create() }));
}
